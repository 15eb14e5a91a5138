import sharp from 'sharp';
import {
  GRAPHIC_FORMATS,
  GRAPHIC_SIZES,
  graphicFileName,
} from './graphic-formats';
import { coverPngOf, logoPngOf } from './graphic-images';

const picture = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 3, background: '#0044ff' },
  })
    .png()
    .toBuffer();

describe('graphic images', () => {
  it('crops a picture the model drew larger (1920×1088) or in another shape (1536×1024) to exactly the hero’s size', async () => {
    for (const [width, height] of [
      [1920, 1088],
      [1536, 1024],
      [1024, 1024],
    ]) {
      const meta = await sharp(
        await coverPngOf(await picture(width, height), 1920, 1080),
      ).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([
        'png',
        1920,
        1080,
      ]);
    }
  });

  it('sizes a logo to a square with transparent padding', async () => {
    const meta = await sharp(
      await logoPngOf(await picture(300, 100), 200),
    ).metadata();
    expect([meta.width, meta.height, meta.hasAlpha]).toEqual([200, 200, true]);
  });

  it('names each format’s file after it, and sizes the social ones as the networks do', () => {
    expect(GRAPHIC_FORMATS.map(graphicFileName)).toEqual([
      'og.png',
      'x.png',
      'linkedin.png',
      'instagram.png',
      'story.png',
      'hero.png',
    ]);
    expect(GRAPHIC_SIZES.og).toEqual({ width: 1200, height: 630 });
    expect(GRAPHIC_SIZES.story).toEqual({ width: 1080, height: 1920 });
  });
});
