import sharp from 'sharp';
import { decodeIco, encodeIco } from './ico';

const square = (size: number) =>
  sharp({
    create: {
      width: size,
      height: size,
      channels: 4,
      background: { r: 0, g: 68, b: 255, alpha: 1 },
    },
  })
    .png()
    .toBuffer();

describe('encodeIco', () => {
  it('writes ICONDIR, one entry per PNG and the PNGs unchanged, in order', async () => {
    const images = await Promise.all(
      [16, 32, 48].map(async (size) => ({ size, png: await square(size) })),
    );
    const ico = encodeIco(images);
    expect([
      ico.readUInt16LE(0),
      ico.readUInt16LE(2),
      ico.readUInt16LE(4),
    ]).toEqual([0, 1, 3]);
    const read = decodeIco(ico);
    expect(read.map(({ size }) => size)).toEqual([16, 32, 48]);
    read.forEach(({ png }, index) =>
      expect(png.equals(images[index].png)).toBe(true),
    );
    // Each entry: 1 colour plane, 32 bits per pixel.
    expect([ico.readUInt16LE(6 + 4), ico.readUInt16LE(6 + 6)]).toEqual([1, 32]);
    expect(ico.length).toBe(
      6 + 3 * 16 + images.reduce((n, { png }) => n + png.length, 0),
    );
  });

  it('writes 256 pixels as 0, as the format says', async () => {
    const ico = encodeIco([{ size: 256, png: await square(256) }]);
    expect(ico.readUInt8(6)).toBe(0);
    expect(decodeIco(ico)[0].size).toBe(256);
  });

  it('refuses no image and sizes beyond 256', () => {
    expect(() => encodeIco([])).toThrow(RangeError);
    expect(() => encodeIco([{ size: 512, png: Buffer.alloc(1) }])).toThrow(
      RangeError,
    );
  });
});
