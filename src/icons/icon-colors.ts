import { coloursOf } from '../brand/prompt-colours';

/** The two colours an icon set is drawn in. */
export interface IconColors {
  /** Strokes and solid fills. */
  primary: string;
  /** Duotone's light fill; the primary again when there is one colour. */
  secondary: string;
}

/**
 * A neutral slate for projects without brand colours: readable on light
 * and dark backgrounds alike.
 */
export const NEUTRAL_ICON_COLORS: IconColors = {
  primary: '#334155',
  secondary: '#334155',
};

/**
 * The brand's colours as a logo prompt states them ("Use these colors:
 * #0044ff, #ff8800."), as the brand kit reads its background: the first
 * two `#rrggbb`, lowercased. Named colours (`white`) are not read: an
 * icon's stroke must be exact. Undefined when the prompt has none.
 */
export function colorsFromPrompt(
  prompt: string | null | undefined,
): IconColors | undefined {
  const colors = coloursOf(prompt);
  if (colors.length === 0) return undefined;
  return { primary: colors[0], secondary: colors[1] ?? colors[0] };
}
