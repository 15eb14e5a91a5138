import type { ImageType } from './image-type';

/**
 * The most pixels any image is decoded with (4096×4096, sharp's
 * `limitInputPixels` for renditions) and the default and ceiling of
 * IMAGE_MAX_PIXELS: an image kept is one that can be decoded. Models draw
 * at most 2048 pixels a side.
 */
export const MAX_DECODED_PIXELS = 4096 * 4096;

/** An image's size in pixels, as its header states it. */
export interface ImageDimensions {
  width: number;
  height: number;
}

/**
 * The width and height a PNG, JPEG or WebP states in its header, read
 * without decoding anything: a few bytes for PNG and WebP, a walk over the
 * JPEG segment headers up to the first frame header. Undefined when the
 * header cannot be read (cut short, malformed) or states a zero side: such
 * bytes are not an image anyone could show. SVG has no pixels of its own.
 */
export function readImageDimensions(
  bytes: Buffer,
  type: ImageType,
): ImageDimensions | undefined {
  const size =
    type.mediaType === 'image/png'
      ? pngDimensions(bytes)
      : type.mediaType === 'image/jpeg'
        ? jpegDimensions(bytes)
        : type.mediaType === 'image/webp'
          ? webpDimensions(bytes)
          : undefined;
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}

/** The IHDR chunk comes first, right after the 8-byte signature. */
function pngDimensions(bytes: Buffer): ImageDimensions | undefined {
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    return undefined;
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * The first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC, which
 * share the range) holds the frame's height then width.
 */
function jpegDimensions(bytes: Buffer): ImageDimensions | undefined {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1];
    // Fill bytes before a marker.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    // Markers without a length: TEM and RST0–RST7.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    // Start of scan or end of image before any frame header.
    if (marker === 0xda || marker === 0xd9) return undefined;
    const length = bytes.readUInt16BE(offset + 2);
    if (length < 2) return undefined;
    const isFrame =
      marker >= 0xc0 &&
      marker <= 0xcf &&
      marker !== 0xc4 &&
      marker !== 0xc8 &&
      marker !== 0xcc;
    if (isFrame) {
      if (offset + 9 > bytes.length) return undefined;
      return {
        height: bytes.readUInt16BE(offset + 5),
        width: bytes.readUInt16BE(offset + 7),
      };
    }
    offset += 2 + length;
  }
  return undefined;
}

/** The first chunk after `RIFF….WEBP`: lossy (VP8), lossless (VP8L) or extended (VP8X). */
function webpDimensions(bytes: Buffer): ImageDimensions | undefined {
  if (bytes.length < 30) return undefined;
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X') {
    return {
      width: 1 + bytes.readUIntLE(24, 3),
      height: 1 + bytes.readUIntLE(27, 3),
    };
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return undefined;
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') {
    // The key frame's start code, then 14-bit sides (2 bits of scale).
    if (bytes.readUIntBE(23, 3) !== 0x9d012a) return undefined;
    return {
      width: bytes.readUInt16LE(26) & 0x3fff,
      height: bytes.readUInt16LE(28) & 0x3fff,
    };
  }
  return undefined;
}

/**
 * Whether an image may be kept: SVG (no pixels of its own), or a raster
 * whose header can be read and states at most `maxPixels` pixels.
 */
export function isWithinPixelLimit(
  bytes: Buffer,
  type: ImageType,
  maxPixels: number,
): boolean {
  if (type.mediaType === 'image/svg+xml') return true;
  const size = readImageDimensions(bytes, type);
  return size !== undefined && size.width * size.height <= maxPixels;
}
