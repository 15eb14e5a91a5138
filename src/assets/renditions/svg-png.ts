import { renderAsync } from '@resvg/resvg-js';
import { dirname, join } from 'node:path';
import { squarePng } from './image-work';

/**
 * Text in an SVG is drawn with the bundled DejaVu fonts only: renditions
 * look the same on every host, and no system font is searched for.
 */
const FONT_DIR = join(
  dirname(require.resolve('dejavu-fonts-ttf/package.json')),
  'ttf',
);
const FONTS = {
  loadSystemFonts: false,
  fontFiles: [
    join(FONT_DIR, 'DejaVuSans.ttf'),
    join(FONT_DIR, 'DejaVuSans-Bold.ttf'),
    join(FONT_DIR, 'DejaVuSerif.ttf'),
    join(FONT_DIR, 'DejaVuSansMono.ttf'),
  ],
  defaultFontFamily: 'DejaVu Sans',
  sansSerifFamily: 'DejaVu Sans',
  serifFamily: 'DejaVu Serif',
  monospaceFamily: 'DejaVu Sans Mono',
};

/**
 * Whether the SVG is wider than tall, read from its root's viewBox (else
 * width and height): the longer side is fitted to the rendition, so a
 * thin SVG never renders to millions of pixels.
 */
export function isLandscape(svg: string): boolean {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const viewBox = / viewBox="([^"]*)"/.exec(root)?.[1];
  const numbers = (viewBox ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (numbers.length === 4 && numbers.every(Number.isFinite)) {
    return numbers[2] >= numbers[3];
  }
  const width = parseFloat(/ width="([^"]*)"/.exec(root)?.[1] ?? '');
  const height = parseFloat(/ height="([^"]*)"/.exec(root)?.[1] ?? '');
  return !(width > 0 && height > 0) || width >= height;
}

/**
 * A kept SVG (rebuilt from the allow-list when it was kept: it loads
 * nothing) as a square PNG `size` pixels a side, drawn by resvg in its own
 * thread (the event loop only awaits), then padded transparent to a
 * square by sharp. resvg is given no resource folder: it reads no file.
 */
export async function svgSquarePng(svg: Buffer, size: number): Promise<Buffer> {
  const text = svg.toString('utf8');
  const rendered = await renderAsync(text, {
    font: FONTS,
    fitTo: isLandscape(text)
      ? { mode: 'width', value: size }
      : { mode: 'height', value: size },
    logLevel: 'off',
  });
  return squarePng(rendered.asPng(), size);
}
