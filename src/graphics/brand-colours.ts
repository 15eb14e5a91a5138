/**
 * The colours a graphic is drawn in: the chosen logo's prompt colours (the
 * #rrggbb ones the logo was asked for), else a neutral default.
 */
export interface BrandColours {
  /** The background. */
  primary: string;
  /** A band and the card's edge: the second colour, else a shade of the first. */
  accent: string;
  /** The headline's colour: black or white, whichever reads on `primary`. */
  text: string;
}

/** Slate and amber: readable together, when nothing says otherwise. */
export const DEFAULT_COLOURS = ['#1e293b', '#f59e0b'];

export function brandColours(colours: string[]): BrandColours {
  const [primary, second] = colours.length > 0 ? colours : DEFAULT_COLOURS;
  return {
    primary,
    accent: second ?? shade(primary),
    text: luminanceOf(primary) > 0.45 ? '#111111' : '#ffffff',
  };
}

/** Relative luminance (WCAG) of #rrggbb. */
export function luminanceOf(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const c = parseInt(hex.slice(at, at + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** `hex` darkened (a light colour) or lightened (a dark one) by a third. */
function shade(hex: string): string {
  const dark = luminanceOf(hex) > 0.3;
  const channels = [1, 3, 5].map((at) => {
    const c = parseInt(hex.slice(at, at + 2), 16);
    const moved = dark ? c * 0.66 : c + (255 - c) * 0.34;
    return Math.round(moved).toString(16).padStart(2, '0');
  });
  return `#${channels.join('')}`;
}
