/** The image formats the service stores and serves, by their first bytes. */
export interface ImageType {
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp';
  extension: 'png' | 'jpg' | 'webp';
}

const PNG_SIGNATURE = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
]);

export const IMAGE_TYPES: readonly ImageType[] = [
  { mediaType: 'image/png', extension: 'png' },
  { mediaType: 'image/jpeg', extension: 'jpg' },
  { mediaType: 'image/webp', extension: 'webp' },
];

/**
 * PNG, JPEG or WebP by magic bytes; undefined for anything else. What the
 * bytes are decides the Content-Type, never what an upstream says they are,
 * so HTML or SVG (which could run script on this origin) is never served.
 */
export function sniffImageType(bytes: Buffer): ImageType | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    return IMAGE_TYPES[0];
  }
  if (
    bytes.length >= 3 &&
    bytes[0] === 0xff &&
    bytes[1] === 0xd8 &&
    bytes[2] === 0xff
  ) {
    return IMAGE_TYPES[1];
  }
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return IMAGE_TYPES[2];
  }
  return undefined;
}

export const extensionOf = (mediaType: string): string | undefined =>
  IMAGE_TYPES.find((type) => type.mediaType === mediaType)?.extension;
