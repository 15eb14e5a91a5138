import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';
import sharp from 'sharp';
import { inImageTurn } from '../assets/renditions/image-work';
import { HEADLINE_FONT } from './graphic-layout';

const FONT_DIR = join(
  dirname(require.resolve('dejavu-fonts-ttf/package.json')),
  'ttf',
);

/**
 * The bundled fonts only: the host's fonts never change what is drawn, so
 * a graphic looks the same on every machine (and in the container).
 */
const RENDER_OPTIONS: ResvgRenderOptions = {
  font: {
    loadSystemFonts: false,
    fontFiles: [
      join(FONT_DIR, 'DejaVuSans.ttf'),
      join(FONT_DIR, 'DejaVuSans-Bold.ttf'),
    ],
    defaultFontFamily: HEADLINE_FONT,
    sansSerifFamily: HEADLINE_FONT,
  },
  fitTo: { mode: 'original' },
  logLevel: 'off',
};

/**
 * An SVG layout drawn as a PNG: resvg rasterises in libuv's thread pool
 * (its async render) and sharp encodes the pixels there too (resvg's own
 * PNG encoder runs on the calling thread: tens of milliseconds of held
 * event loop for a story), one image operation turn at a time with
 * sharp's other work (image-work.ts), so the event loop only awaits and at
 * most two images are held decoded at once.
 */
export function renderSvgToPng(
  svg: string,
  signal?: AbortSignal,
): Promise<Buffer> {
  return inImageTurn(async () => {
    signal?.throwIfAborted();
    // Not given the signal: resvg takes it by setting its `onabort` (the
    // caller's own handler would be replaced) and throws an empty error
    // when one signal is given to a second render. A render is a fraction
    // of a second; the signal is checked on either side of it.
    const image = await renderAsync(svg, RENDER_OPTIONS);
    signal?.throwIfAborted();
    const { width, height } = image;
    return sharp(image.pixels, { raw: { width, height, channels: 4 } })
      .png()
      .toBuffer();
  });
}

/** What draws a composed graphic, as its asset's `model` tells it. */
export const RENDERER = `resvg ${
  (
    JSON.parse(
      readFileSync(require.resolve('@resvg/resvg-js/package.json'), 'utf8'),
    ) as { version: string }
  ).version
}`;
