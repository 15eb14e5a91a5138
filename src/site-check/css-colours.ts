/** An sRGB colour, channels 0–255, alpha 0–1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/**
 * The basic named colours (CSS level 1 and `orange`): what a page's
 * author writes by name most; other names are not judged.
 */
const NAMED: Readonly<Record<string, string>> = {
  black: '#000000',
  white: '#ffffff',
  red: '#ff0000',
  green: '#008000',
  blue: '#0000ff',
  yellow: '#ffff00',
  gray: '#808080',
  grey: '#808080',
  silver: '#c0c0c0',
  maroon: '#800000',
  purple: '#800080',
  fuchsia: '#ff00ff',
  lime: '#00ff00',
  olive: '#808000',
  navy: '#000080',
  teal: '#008080',
  aqua: '#00ffff',
  orange: '#ffa500',
};

/** A declared colour value read as sRGB; undefined when it is not one we read. */
export function parseCssColour(value: string): Rgba | undefined {
  const text = value.trim().toLowerCase();
  if (text in NAMED) return parseHex(NAMED[text]);
  if (text.startsWith('#')) return parseHex(text);
  const rgb = /^rgba?\(([^)]{1,80})\)$/.exec(text);
  return rgb ? parseRgbArguments(rgb[1]) : undefined;
}

function parseHex(text: string): Rgba | undefined {
  if (!/^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.test(text))
    return undefined;
  let digits = text.slice(1);
  if (digits.length <= 4) digits = [...digits].map((d) => d + d).join('');
  const channel = (index: number) =>
    parseInt(digits.slice(index * 2, index * 2 + 2), 16);
  return {
    r: channel(0),
    g: channel(1),
    b: channel(2),
    a: digits.length === 8 ? channel(3) / 255 : 1,
  };
}

/** `r, g, b[, a]` or `r g b[ / a]`, numbers or percentages. */
function parseRgbArguments(text: string): Rgba | undefined {
  const parts = text
    .replace('/', ' ')
    .split(/[\s,]+/)
    .filter((part) => part !== '');
  if (parts.length !== 3 && parts.length !== 4) return undefined;
  const numbers = parts.map((part, index) => {
    const percent = part.endsWith('%');
    const number = Number(percent ? part.slice(0, -1) : part);
    if (!Number.isFinite(number)) return NaN;
    if (index === 3) return percent ? number / 100 : number;
    return percent ? (number * 255) / 100 : number;
  });
  if (numbers.some((number) => Number.isNaN(number))) return undefined;
  const clamp = (n: number, max: number) => Math.min(max, Math.max(0, n));
  return {
    r: clamp(numbers[0], 255),
    g: clamp(numbers[1], 255),
    b: clamp(numbers[2], 255),
    a: numbers.length === 4 ? clamp(numbers[3], 1) : 1,
  };
}

/** WCAG 2 relative luminance of an opaque colour. */
export function relativeLuminance({ r, g, b }: Rgba): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/**
 * WCAG 2 contrast ratio (1–21) of a text colour on a background; a
 * translucent text colour is first laid over the background.
 */
export function contrastRatio(text: Rgba, background: Rgba): number {
  const over = (front: number, back: number) =>
    front * text.a + back * (1 - text.a);
  const shown: Rgba = {
    r: over(text.r, background.r),
    g: over(text.g, background.g),
    b: over(text.b, background.b),
    a: 1,
  };
  const [light, dark] = [
    relativeLuminance(shown),
    relativeLuminance(background),
  ].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}
