import { COMPANY_NAME_MAX, LOGO_STYLES } from '../logo/logo.constants';
import type { RunStepType } from './run-graph';

/**
 * A neutral palette for a logo asked for without colours: a dark slate
 * and an off-white, which read on light and dark backgrounds alike.
 */
export const RUN_LOGO_COLORS = ['#334155', '#f8fafc'];

/**
 * The icons a site's page needs most when the run is not told which: all
 * Lucide's, so the set costs no model call.
 */
export const RUN_ICON_NAMES = [
  'menu',
  'search',
  'mail',
  'phone',
  'map-pin',
  'check',
];

/**
 * A step's input with the run's defaults filled in where the request left
 * them out: a logo's company name is the project's name (cut to the
 * field's limit), its style the first style, its colours the neutral
 * palette; an icon set's names the common ones above. Every other input
 * is taken as given.
 */
export function withRunDefaults(
  type: RunStepType,
  input: Record<string, unknown>,
  projectName: string,
): Record<string, unknown> {
  if (type === 'icon-set') return { names: RUN_ICON_NAMES, ...input };
  if (type !== 'logo') return input;
  return {
    companyName: [...projectName].slice(0, COMPANY_NAME_MAX).join(''),
    style: LOGO_STYLES[0],
    colors: RUN_LOGO_COLORS,
    ...input,
  };
}
