/** An icon image of an ICO file: a PNG of `size`×`size` pixels (1 to 256). */
export interface IcoImage {
  size: number;
  png: Buffer;
}

const ICONDIR_BYTES = 6;
const ICONDIRENTRY_BYTES = 16;

/**
 * An ICO file (favicon.ico) holding PNG images, as browsers and Windows
 * Vista onwards read them: ICONDIR (reserved 0, type 1 = icon, count),
 * one 16-byte ICONDIRENTRY per image (width and height, 0 meaning 256;
 * no palette; 1 colour plane; 32 bits per pixel; the PNG's length and
 * offset), then the PNGs themselves, unchanged. All fields little-endian.
 */
export function encodeIco(images: readonly IcoImage[]): Buffer {
  if (images.length === 0 || images.length > 0xffff) {
    throw new RangeError('An ICO file holds 1 to 65535 images');
  }
  const header = Buffer.alloc(
    ICONDIR_BYTES + ICONDIRENTRY_BYTES * images.length,
  );
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, index) => {
    if (!Number.isInteger(size) || size < 1 || size > 256) {
      throw new RangeError(`An ICO image is 1 to 256 pixels a side: ${size}`);
    }
    const entry = ICONDIR_BYTES + ICONDIRENTRY_BYTES * index;
    header.writeUInt8(size === 256 ? 0 : size, entry);
    header.writeUInt8(size === 256 ? 0 : size, entry + 1);
    header.writeUInt8(0, entry + 2); // no palette
    header.writeUInt8(0, entry + 3); // reserved
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map(({ png }) => png)]);
}

/** The entries of an ICO file: each image's size and PNG (tests read favicons back). */
export function decodeIco(ico: Buffer): IcoImage[] {
  if (ico.readUInt16LE(0) !== 0 || ico.readUInt16LE(2) !== 1) {
    throw new RangeError('Not an ICO file');
  }
  const count = ico.readUInt16LE(4);
  return Array.from({ length: count }, (_, index) => {
    const entry = ICONDIR_BYTES + ICONDIRENTRY_BYTES * index;
    const width = ico.readUInt8(entry);
    const length = ico.readUInt32LE(entry + 8);
    const start = ico.readUInt32LE(entry + 12);
    return {
      size: width === 0 ? 256 : width,
      png: ico.subarray(start, start + length),
    };
  });
}
