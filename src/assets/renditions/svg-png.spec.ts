import sharp from 'sharp';
import { isLandscape, svgSquarePng } from './svg-png';

const NS = 'xmlns="http://www.w3.org/2000/svg"';

describe('svgSquarePng', () => {
  it('draws an icon as a square PNG of each size asked for', async () => {
    const svg = Buffer.from(
      `<svg ${NS} viewBox="0 0 24 24" fill="none" stroke="#0044ff" stroke-width="2"><circle cx="12" cy="12" r="8"/></svg>`,
    );
    for (const size of [24, 48, 96]) {
      const png = await svgSquarePng(svg, size);
      const meta = await sharp(png).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([
        'png',
        size,
        size,
      ]);
    }
  });

  it('fits a tall SVG by its height: never more pixels than the square', async () => {
    const png = await svgSquarePng(
      Buffer.from(
        `<svg ${NS} viewBox="0 0 10 1000"><rect width="10" height="1000"/></svg>`,
      ),
      1024,
    );
    expect((await sharp(png).metadata()).height).toBe(1024);
  });

  it('refuses (rejects) an SVG too thin to draw at the size, rather than drawing millions of pixels', async () => {
    await expect(
      svgSquarePng(
        Buffer.from(
          `<svg ${NS} viewBox="0 0 1 1000"><rect width="1" height="1000"/></svg>`,
        ),
        64,
      ),
    ).rejects.toThrow();
  });

  it('tells landscape from portrait by viewBox, else size', () => {
    expect(isLandscape(`<svg ${NS} viewBox="0 0 10 5"/>`)).toBe(true);
    expect(isLandscape(`<svg ${NS} viewBox="0 0 5 10"/>`)).toBe(false);
    expect(isLandscape(`<svg ${NS} width="5" height="10"/>`)).toBe(false);
    expect(isLandscape(`<svg ${NS}/>`)).toBe(true);
  });
});
