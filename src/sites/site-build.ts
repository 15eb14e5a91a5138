import { createHash } from 'node:crypto';
import { headTags, rewriteHead } from './page-head';
import {
  SITE_FILE_TYPES,
  type SiteFile,
  type SiteFileName,
} from './site-files';
import type { SourceFile } from './site-sources';

/** What a site is made of, read from the project's assets. */
export interface SiteParts {
  /** Its address (current), ending with `/`. */
  url: string;
  title: string;
  description: string | null;
  page: Buffer;
  /** The brand kit's files by their kit names. */
  kit: Map<string, SourceFile>;
  og: SourceFile | undefined;
}

/** The kit's files a site serves, under the same names. */
export const KIT_FILES_SERVED = [
  'favicon.ico',
  'apple-touch-icon.png',
  'icon-192.png',
  'icon-512.png',
] as const satisfies readonly SiteFileName[];

const fileOf = (path: SiteFileName, bytes: Buffer): SiteFile => ({
  path,
  contentType: SITE_FILE_TYPES[path],
  byteSize: bytes.length,
  sha256: createHash('sha256').update(bytes).digest('hex'),
  bytes,
});

/**
 * The files of a version: index.html (the page, its head given the site's
 * icons and social card), the kit's icons it has, og.png when the project
 * has an og graphic. Only PNG icons are taken as PNG names (a kit file's
 * type is checked, not trusted from its name).
 */
export async function buildSite(parts: SiteParts): Promise<SiteFile[]> {
  const icons = new Map<SiteFileName, Buffer>();
  for (const name of KIT_FILES_SERVED) {
    const file = parts.kit.get(name);
    const wanted = name === 'favicon.ico' ? 'image/x-icon' : 'image/png';
    if (file && file.contentType === wanted) icons.set(name, file.bytes);
  }
  const og = parts.og?.contentType === 'image/png' ? parts.og : undefined;
  const page = await rewriteHead(
    parts.page.toString('utf8'),
    headTags({
      url: parts.url,
      title: parts.title,
      description: parts.description,
      icons: {
        favicon: icons.has('favicon.ico'),
        appleTouch: icons.has('apple-touch-icon.png'),
        png192: icons.has('icon-192.png'),
        png512: icons.has('icon-512.png'),
      },
      ogImage: og !== undefined,
    }),
  );
  const files = [fileOf('index.html', Buffer.from(page, 'utf8'))];
  for (const [name, bytes] of icons) files.push(fileOf(name, bytes));
  if (og) files.push(fileOf('og.png', og.bytes));
  return files;
}
