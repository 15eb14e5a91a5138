/** The image formats the service stores and serves, by their first bytes. */
export interface ImageType {
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/svg+xml';
  extension: 'png' | 'jpg' | 'webp' | 'svg';
}

/**
 * SVG, only where it was asked for (a model that draws SVG, `format:
 * "svg"`): a document that can hold script, so it is always served with a
 * sandboxing Content-Security-Policy (common/http/send-image.ts).
 */
export const SVG_TYPE: ImageType = {
  mediaType: 'image/svg+xml',
  extension: 'svg',
};

const PNG_SIGNATURE = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
]);

export const IMAGE_TYPES: readonly ImageType[] = [
  { mediaType: 'image/png', extension: 'png' },
  { mediaType: 'image/jpeg', extension: 'jpg' },
  { mediaType: 'image/webp', extension: 'webp' },
];

/**
 * PNG, JPEG or WebP by magic bytes (and SVG when `svg` allows it);
 * undefined for anything else. What the bytes are decides the
 * Content-Type, never what an upstream says they are, so HTML (which could
 * run script on this origin) is never served, nor SVG unless asked for.
 */
export function sniffImageType(
  bytes: Buffer,
  options: { svg?: boolean } = {},
): ImageType | undefined {
  const raster = sniffRasterType(bytes);
  if (raster || !options.svg) return raster;
  return isSvgDocument(bytes) ? SVG_TYPE : undefined;
}

/** PNG, JPEG or WebP by magic bytes: a look at the first 12 bytes only. */
function sniffRasterType(bytes: Buffer): ImageType | undefined {
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
  [...IMAGE_TYPES, SVG_TYPE].find((type) => type.mediaType === mediaType)
    ?.extension;

/** Optional byte order mark, XML declaration, comments and space before the root. */
const SVG_PROLOGUE =
  /^\uFEFF?\s*(<\?xml[^>]{0,200}\?>\s*)?(<!--[^]{0,2000}?-->\s*){0,8}/;

/**
 * An SVG document: UTF-8 text whose root element is `<svg`, with no DOCTYPE
 * (its entities could make a browser expand the document without bound).
 * Whether its content is harmless is not judged: it is served sandboxed.
 */
export function isSvgDocument(bytes: Buffer): boolean {
  // The root first, from the first bytes only: a PNG or a large non-SVG
  // answer is refused without reading it whole.
  const start = bytes
    .subarray(0, 12_000)
    .toString('utf8')
    .replace(SVG_PROLOGUE, '');
  if (!/^<svg[\s>]/.test(start)) return false;
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD')) return false;
  return !/<!DOCTYPE|<!ENTITY/i.test(text);
}
