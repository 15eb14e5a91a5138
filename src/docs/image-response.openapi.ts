import { applyDecorators } from '@nestjs/common';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';

type Headers = Record<string, { description: string; schema: object }>;

const BINARY = { schema: { type: 'string', format: 'binary' } };

/** What a logo is served as, hosted or kept. */
export const LOGO_MEDIA_TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/svg+xml',
] as const;

/**
 * The answers of a route that serves image bytes the service keeps (a
 * hosted logo, a kept logo): 200 with the bytes in one of `types` (PNG,
 * JPEG, WebP and SVG for both; the icon of a brand kit for kept assets),
 * 304 to If-None-Match, both with `headers`; failures stay JSON.
 */
export function ApiImageBytes(
  description: { ok: string; notModified: string },
  headers: Headers,
  types: readonly string[] = LOGO_MEDIA_TYPES,
) {
  return applyDecorators(
    ApiProduces(...types, 'application/json'),
    ApiResponse({
      status: 200,
      description: description.ok,
      headers,
      content: Object.fromEntries(types.map((type) => [type, BINARY])),
    }),
    ApiResponse({
      status: 304,
      description: description.notModified,
      headers,
    }),
  );
}
