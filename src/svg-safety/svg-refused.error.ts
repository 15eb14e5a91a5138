import { BadRequestException } from '@nestjs/common';
import type { ErrorCode } from '../failures/error-codes';

/** Why an SVG could not be made safe. */
export type SvgRefusal =
  | 'too_large'
  | 'too_many_elements'
  | 'too_deep'
  | 'doctype'
  | 'malformed'
  | 'not_svg';

const MESSAGES: Record<SvgRefusal, string> = {
  too_large: 'The SVG is larger than the service takes',
  too_many_elements: 'The SVG has more elements than the service takes',
  too_deep: 'The SVG nests its elements deeper than the service takes',
  doctype: 'The SVG declares a DOCTYPE or entities, which are refused',
  malformed: 'The SVG is not well-formed XML',
  not_svg: 'The document is not an SVG (its root element is not <svg>)',
};

/**
 * 400 `svg_unsafe`: an SVG that cannot be rebuilt into a safe one (see
 * sanitize-svg.ts). `reason` tells which rule; the text says it for people.
 */
export class SvgRefusedError extends BadRequestException {
  readonly code: ErrorCode = 'svg_unsafe';

  constructor(readonly reason: SvgRefusal) {
    super(MESSAGES[reason]);
  }
}
