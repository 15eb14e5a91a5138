import sharp from 'sharp';
import { pixelBombPng } from '../../dev-servers/image-api/pixel-bomb-png';
import { readImageDimensions } from './image-dimensions';
import { sniffImageType } from './image-type';

const dimensionsOf = (bytes: Buffer) => {
  const type = sniffImageType(bytes);
  if (!type) throw new Error('not an image');
  return readImageDimensions(bytes, type);
};

describe('readImageDimensions', () => {
  const solid = () =>
    sharp({
      create: {
        width: 300,
        height: 200,
        channels: 4,
        background: { r: 200, g: 10, b: 10, alpha: 1 },
      },
    });

  it.each([
    ['PNG', () => solid().png().toBuffer()],
    ['JPEG', () => solid().jpeg().toBuffer()],
    ['lossy WebP', () => solid().webp().toBuffer()],
    ['lossless WebP', () => solid().webp({ lossless: true }).toBuffer()],
  ])('reads the width and height a %s header states', async (_name, make) => {
    expect(dimensionsOf(await make())).toEqual({ width: 300, height: 200 });
  });

  it('reads the 50,000x50,000 a ~12 KB pixel bomb claims, without decoding it', () => {
    const bomb = pixelBombPng();
    expect(bomb.length).toBeLessThan(13_000);
    expect(dimensionsOf(bomb)).toEqual({ width: 50_000, height: 50_000 });
  });

  it('is undefined for a header cut short or stating a zero side', () => {
    const png = pixelBombPng();
    expect(dimensionsOf(png.subarray(0, 20))).toBeUndefined();
    const zero = Buffer.from(png);
    zero.writeUInt32BE(0, 16);
    expect(dimensionsOf(zero)).toBeUndefined();
    expect(dimensionsOf(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeUndefined();
  });
});
