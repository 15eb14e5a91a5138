/**
 * The files a published site can hold: the page, its icons and its social
 * image. The listener serves only these names (never a path built from
 * the request), so nothing else can ever be reached.
 */
export const SITE_FILE_TYPES = {
  'index.html': 'text/html; charset=utf-8',
  'favicon.ico': 'image/x-icon',
  'apple-touch-icon.png': 'image/png',
  'icon-192.png': 'image/png',
  'icon-512.png': 'image/png',
  'og.png': 'image/png',
} as const;

export type SiteFileName = keyof typeof SITE_FILE_TYPES;

export const SITE_FILE_NAMES = Object.keys(SITE_FILE_TYPES) as SiteFileName[];

export const isSiteFileName = (name: string): name is SiteFileName =>
  Object.hasOwn(SITE_FILE_TYPES, name);

/** One file of a version, as the deployment record lists it. */
export interface SiteFileEntry {
  path: SiteFileName;
  contentType: string;
  byteSize: number;
  /** Lowercase hex SHA-256 of its bytes: its ETag. */
  sha256: string;
}

/** A file with its bytes, on its way to a store. */
export interface SiteFile extends SiteFileEntry {
  bytes: Buffer;
}

/** The file name a version's deployment record (its asset) is kept under. */
export const deploymentFileName = (version: number): string =>
  `site-v${version}.json`;
