import type { LogoStyle } from '../../src/logo/logo.constants';
import type { LogoSketch } from './logo-prompt-reader';
import { initialsOf } from './logo-svg';
import { encodePng } from './png-encoder';

/** The PNG's side: what the GPT image request asks for. */
export const PNG_SIZE = 1024;

type Rgb = [number, number, number];

/** Named colors a logo request is likely to use; others fall back. */
const NAMED: Record<string, Rgb> = {
  black: [0, 0, 0],
  white: [255, 255, 255],
  navy: [0, 0, 128],
  blue: [0, 0, 255],
  gold: [255, 215, 0],
  red: [255, 0, 0],
  green: [0, 128, 0],
  orange: [255, 165, 0],
  purple: [128, 0, 128],
  teal: [0, 128, 128],
  gray: [128, 128, 128],
  grey: [128, 128, 128],
  yellow: [255, 255, 0],
  pink: [255, 192, 203],
};
const FALLBACK: Rgb[] = [
  [31, 58, 147],
  [245, 166, 35],
];

function parseColor(text: string): Rgb | undefined {
  const color = text.trim().toLowerCase();
  if (NAMED[color]) return NAMED[color];
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(color);
  if (short)
    return [1, 2, 3].map((i) => parseInt(short[i] + short[i], 16)) as Rgb;
  const long =
    /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})(?:[0-9a-f]{2})?$/.exec(color);
  if (long) return [1, 2, 3].map((i) => parseInt(long[i], 16)) as Rgb;
  return undefined;
}

/** 5×7 glyphs of the initials; anything else is drawn as "?". */
const GLYPHS: Record<string, string> = {
  A: '01110100011000111111100011000110001',
  B: '11110100011111010001100011000111110',
  C: '01110100011000010000100001000101110',
  D: '11110100011000110001100011000111110',
  E: '11111100001111010000100001000011111',
  F: '11111100001111010000100001000010000',
  G: '01110100011000010111100011000101111',
  H: '10001100011111110001100011000110001',
  I: '01110001000010000100001000010001110',
  J: '00111000100001000010000101001001100',
  K: '10001100101010011000101001001010001',
  L: '10000100001000010000100001000011111',
  M: '10001110111010110101100011000110001',
  N: '10001110011010110011100011000110001',
  O: '01110100011000110001100011000101110',
  P: '11110100011111010000100001000010000',
  Q: '01110100011000110001101011001001101',
  R: '11110100011111010100100101000110001',
  S: '01111100000111000001000010000111110',
  T: '11111001000010000100001000010000100',
  U: '10001100011000110001100011000101110',
  V: '10001100011000110001100010101000100',
  W: '10001100011000110101101011010101010',
  X: '10001100010101000100010101000110001',
  Y: '10001100010101000100001000010000100',
  Z: '11111000010001000100010001000011111',
  '0': '01110100011001110101110011000101110',
  '1': '00100011000010000100001000010001110',
  '2': '01110100010000100010001000100011111',
  '3': '11110000010000101110000010000111110',
  '4': '00010001100101010010111110001000010',
  '5': '11111100001111000001000011000101110',
  '6': '00110010001000011110100011000101110',
  '7': '11111000010001000100010000100001000',
  '8': '01110100011000101110100011000101110',
  '9': '01110100011000101111000010001001100',
  '?': '01110100010000100010001000000000100',
};

/** Whether (x, y) lies in the style's emblem, centred on (512, 430). */
const EMBLEMS: Record<LogoStyle, (x: number, y: number) => boolean> = {
  modern: (x, y) => roundedSquare(x, y, 280, 140),
  minimalist: (x, y) => Math.abs(Math.hypot(x - 512, y - 430) - 270) <= 14,
  vintage: (x, y) => Math.hypot(x - 512, y - 430) <= 280,
  playful: (x, y) => ((x - 512) / 290) ** 2 + ((y - 430) / 270) ** 2 <= 1,
  professional: (x, y) =>
    Math.abs(x - 512) <= 268 && y >= 150 && y <= 730 - Math.abs(x - 512) * 0.8,
  abstract: (x, y) =>
    Math.hypot(x - 430, y - 380) <= 210 || Math.hypot(x - 600, y - 480) <= 210,
  geometric: (x, y) => {
    const dx = Math.abs(x - 512);
    const dy = Math.abs(y - 430);
    return dx <= 251 && dy <= 290 - dx * 0.577;
  },
  organic: (x, y) => ((x - 512) / 250) ** 2 + ((y - 430) / 290) ** 2 <= 1,
};

function roundedSquare(
  x: number,
  y: number,
  half: number,
  radius: number,
): boolean {
  const dx = Math.max(Math.abs(x - 512) - (half - radius), 0);
  const dy = Math.max(Math.abs(y - 430) - (half - radius), 0);
  return Math.hypot(dx, dy) <= radius;
}

/** Styles whose initials stand on the background (as in the SVG). */
const OUTLINE_STYLES: ReadonlySet<LogoStyle> = new Set([
  'minimalist',
  'abstract',
]);

/**
 * The drawn logo as a 1024x1024 PNG on a transparent background: the
 * style's emblem in the first color, the initials in the second (or
 * white; in the first color for outline styles), a dot per further color.
 */
export function drawLogoPng(sketch: LogoSketch): Buffer {
  const colors = sketch.colors.map(parseColor).filter((c): c is Rgb => !!c);
  const [main, ink = [255, 255, 255], ...accents] =
    colors.length > 0 ? colors : FALLBACK;
  const rgba = Buffer.alloc(PNG_SIZE * PNG_SIZE * 4);
  const paint = (x: number, y: number, [r, g, b]: Rgb) => {
    const at = (y * PNG_SIZE + x) * 4;
    rgba[at] = r;
    rgba[at + 1] = g;
    rgba[at + 2] = b;
    rgba[at + 3] = 255;
  };
  const inEmblem = EMBLEMS[sketch.style];
  for (let y = 120; y < 760; y++) {
    for (let x = 200; x < 830; x++) if (inEmblem(x, y)) paint(x, y, main);
  }
  const initials = [...initialsOf(sketch.companyName)].slice(0, 2);
  const cell = initials.length > 1 ? 32 : 40;
  const width = initials.length * 6 * cell - cell;
  const left = 512 - width / 2;
  const top = 430 - (7 * cell) / 2;
  const initialsColor = OUTLINE_STYLES.has(sketch.style) ? main : ink;
  initials.forEach((letter, index) => {
    const glyph = GLYPHS[letter] ?? GLYPHS['?'];
    for (let i = 0; i < 35; i++) {
      if (glyph[i] !== '1') continue;
      const gx = left + index * 6 * cell + (i % 5) * cell;
      const gy = top + Math.floor(i / 5) * cell;
      for (let y = gy; y < gy + cell; y++) {
        for (let x = gx; x < gx + cell; x++) paint(x, y, initialsColor);
      }
    }
  });
  accents.forEach((color, index) => {
    const cx = 512 + (index - (accents.length - 1) / 2) * 70;
    for (let y = 938; y <= 982; y++) {
      for (let x = Math.floor(cx - 22); x <= cx + 22; x++) {
        if (Math.hypot(x - cx, y - 960) <= 22) paint(x, y, color);
      }
    }
  });
  return encodePng(PNG_SIZE, PNG_SIZE, rgba);
}
