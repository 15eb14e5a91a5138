import type { AssetKind } from './dto/asset.dto';

/** Pixels a side of an image asset's thumbnailUrl: a step of the rendition ladder. */
export const THUMBNAIL_SIZE = 128;

/** The types whose thumbnail is a rendition (the ones sharp renders). */
const RENDERED_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
]);

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'image/x-icon': 'ico',
  'application/json': 'json',
  'text/html': 'html',
};

/** The extension a file of this type is saved with. */
export const extensionFor = (contentType: string): string =>
  EXTENSIONS[contentType] ?? 'bin';

/**
 * The file name of an asset nobody named: `<kind>-<last 8 hex digits of
 * its id>.<ext>` (`logo-7a8b9c0d.png`). The id's end is its random part,
 * so two logos of one project do not share a name; the migration gives
 * rows kept before file names the same name (1764550000000).
 */
export const defaultFileName = (
  kind: AssetKind,
  id: string,
  contentType: string,
): string => `${kind}-${id.slice(-8)}.${extensionFor(contentType)}`;

/** At most this many characters of an uploaded name are kept. */
const UPLOADED_NAME_MAX = 100;

/**
 * An uploaded file's name made safe to send back and to save under: its
 * last path segment, letters, digits, `.`, `-` and `_` only, and the
 * extension of the type its bytes are (never the one it was sent with).
 * Falls back to the default name when nothing usable is left.
 */
export function uploadedFileName(
  sent: string | undefined,
  fallback: { kind: AssetKind; id: string; contentType: string },
): string {
  const base = (sent ?? '')
    .split(/[\\/]/)
    .pop()!
    .normalize('NFKD')
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, UPLOADED_NAME_MAX);
  if (base === '') {
    return defaultFileName(fallback.kind, fallback.id, fallback.contentType);
  }
  return `${base}.${extensionFor(fallback.contentType)}`;
}

/**
 * The kinds whose thumbnail is a rendition drawn from what they hold
 * rather than from image bytes: a wireframe's preview (renditions/).
 */
export const DRAWN_KINDS: ReadonlySet<string> = new Set(['wireframe']);

/**
 * The thumbnail of an asset whose bytes load at `url`: for a raster image
 * or a drawn kind (a wireframe's preview) its THUMBNAIL_SIZE rendition
 * (the query joins a signed url's), for SVG the url itself (it scales),
 * for anything else none.
 */
export function thumbnailUrlOf(
  url: string,
  contentType: string,
  kind?: string,
): string | null {
  if (contentType === 'image/svg+xml') return url;
  if (!RENDERED_TYPES.has(contentType) && !DRAWN_KINDS.has(kind ?? ''))
    return null;
  return `${url}${url.includes('?') ? '&' : '?'}size=${THUMBNAIL_SIZE}`;
}
