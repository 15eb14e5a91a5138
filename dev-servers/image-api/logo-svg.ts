import type { LogoStyle } from '../../src/logo/logo.constants';
import type { LogoSketch } from './logo-prompt-reader';

/** Used when the request names no color the SVG can use. */
const FALLBACK_COLORS = ['#1f3a93', '#f5a623'];

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const NAMED = /^[a-z]{3,20}$/i;
const FUNCTIONAL = /^(?:rgba?|hsla?)\([\d\s.,%/+-]+\)$/i;

/**
 * A color an SVG paint attribute accepts as written. Anything else (free
 * text such as "ocean blue") is left out rather than drawn as black.
 */
export function isDrawableColor(color: string): boolean {
  const text = color.trim();
  return HEX.test(text) || NAMED.test(text) || FUNCTIONAL.test(text);
}

/**
 * The company's initials: the first letter or digit of its first two words
 * ("Acme Rockets" → "AR", "acme" → "A"), upper-cased.
 */
export function initialsOf(companyName: string): string {
  const letters = companyName
    .split(/[\s\-_./&+]+/)
    .map((word) => /[\p{L}\p{N}]/u.exec(word)?.[0])
    .filter((letter): letter is string => letter !== undefined)
    .slice(0, 2)
    .join('');
  return letters === '' ? '?' : letters.toLocaleUpperCase();
}

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

interface Palette {
  /** The shape. */
  main: string;
  /** The initials on it: the second color, or white. */
  ink: string;
  /** Whether the request named a second color. */
  inkGiven: boolean;
  /** Every other color: a row of dots under the name. */
  accents: string[];
}

function paletteOf(colors: string[]): Palette {
  const usable = colors.map((c) => c.trim()).filter(isDrawableColor);
  const [main, ink, ...accents] = usable.length > 0 ? usable : FALLBACK_COLORS;
  return { main, ink: ink ?? '#ffffff', inkGiven: ink !== undefined, accents };
}

/** The emblem of each style, centred on (512, 430), about 560 px wide. */
const SHAPES: Record<LogoStyle, (p: Palette) => string> = {
  modern: (p) =>
    `<rect x="232" y="150" width="560" height="560" rx="140" fill="${p.main}"/>`,
  minimalist: (p) =>
    `<circle cx="512" cy="430" r="270" fill="none" stroke="${p.main}" stroke-width="28"/>`,
  vintage: (p) =>
    `<circle cx="512" cy="430" r="280" fill="${p.main}"/>` +
    `<circle cx="512" cy="430" r="240" fill="none" stroke="${p.ink}" stroke-width="8" stroke-dasharray="18 12"/>`,
  playful: (p) =>
    `<path d="M512 150 C700 140 800 260 790 420 C780 600 660 720 500 710 C330 700 230 590 240 420 C250 250 350 160 512 150 Z" fill="${p.main}"/>` +
    `<circle cx="760" cy="200" r="44" fill="${p.ink}"/>`,
  professional: (p) =>
    `<path d="M512 140 L780 220 L780 430 C780 580 660 680 512 730 C364 680 244 580 244 430 L244 220 Z" fill="${p.main}"/>`,
  abstract: (p) =>
    `<circle cx="430" cy="380" r="210" fill="${p.main}" fill-opacity="0.9"/>` +
    `<circle cx="600" cy="480" r="210" fill="${p.ink}" fill-opacity="0.55"/>`,
  geometric: (p) =>
    `<polygon points="512,140 763,285 763,575 512,720 261,575 261,285" fill="${p.main}"/>`,
  organic: (p) =>
    `<path d="M512 140 C760 220 800 520 512 720 C224 520 264 220 512 140 Z" fill="${p.main}"/>`,
};

/**
 * Styles whose initials stand on the background, not on a filled shape:
 * they are drawn in the first color, and the name in the second.
 */
const INITIALS_ON_BACKGROUND: ReadonlySet<LogoStyle> = new Set([
  'minimalist',
  'abstract',
]);

/**
 * A 1024x1024 SVG logo on a transparent background: the style's emblem in
 * the first color, the initials in the second (or white), the name under
 * it, and one dot for each further color, so every drawable color appears.
 */
export function drawLogoSvg(sketch: LogoSketch): string {
  const palette = paletteOf(sketch.colors);
  const initials = escapeXml(initialsOf(sketch.companyName));
  const name = escapeXml(sketch.companyName.trim());
  const onBackground = INITIALS_ON_BACKGROUND.has(sketch.style);
  const initialsColor = onBackground ? palette.main : palette.ink;
  const nameColor =
    onBackground && palette.inkGiven ? palette.ink : palette.main;
  const fontSize = initials.length > 1 ? 240 : 300;
  // A white halo keeps the initials readable where shapes overlap them.
  const halo = onBackground
    ? ' stroke="#ffffff" stroke-width="14" paint-order="stroke"'
    : '';
  const dots = palette.accents
    .map((color, index) => {
      const x = 512 + (index - (palette.accents.length - 1) / 2) * 70;
      return `<circle cx="${x}" cy="960" r="22" fill="${color}"/>`;
    })
    .join('');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024" viewBox="0 0 1024 1024" role="img" aria-label="${name} logo">`,
    `<title>${name}</title>`,
    `<g data-style="${sketch.style}">${SHAPES[sketch.style](palette)}</g>`,
    `<text x="512" y="430" text-anchor="middle" dominant-baseline="central" font-family="Helvetica, Arial, sans-serif" font-weight="700" font-size="${fontSize}" fill="${initialsColor}"${halo}>${initials}</text>`,
    `<text x="512" y="850" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="64" fill="${nameColor}">${name}</text>`,
    dots,
    '</svg>',
    '',
  ].join('\n');
}
