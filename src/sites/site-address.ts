import { isWellFormedId } from '../common/ids';
import { isSiteFileName, type SiteFileName } from './site-files';

/** Longer request paths are never a site's (a UUID, a version, a file name). */
export const SITE_PATH_MAX = 128;

/** What a request to the sites listener names. */
export type SiteAddress =
  | {
      kind: 'file';
      projectId: string;
      version: number | 'current';
      path: SiteFileName;
    }
  /** `/<projectId>` or `/<projectId>/v<N>` without the slash its links need. */
  | { kind: 'slash'; location: string };

const VERSION = /^v([1-9]\d{0,8})$/;

/**
 * Reads a request's target: `/<projectId>/[<file>]` (the current version)
 * or `/<projectId>/v<N>/[<file>]` (that version); an empty file name is
 * index.html. Only known file names, a well-formed project id and a
 * version of at most 9 digits pass; anything else (dot segments, encoded
 * slashes, a query's path) is undefined, answered 404.
 */
export function readSiteAddress(target: string): SiteAddress | undefined {
  if (target.length > SITE_PATH_MAX) return undefined;
  const path = target.split('?', 1)[0];
  const parts = path.split('/');
  if (parts[0] !== '' || !isWellFormedId(parts[1] ?? '')) return undefined;
  const projectId = parts[1].toLowerCase();
  if (parts.length === 2) return { kind: 'slash', location: `/${projectId}/` };
  const version = VERSION.exec(parts[2]);
  if (version) {
    if (parts.length === 3) {
      return { kind: 'slash', location: `/${projectId}/${parts[2]}/` };
    }
    return fileOf(projectId, Number(version[1]), parts.slice(3));
  }
  return fileOf(projectId, 'current', parts.slice(2));
}

function fileOf(
  projectId: string,
  version: number | 'current',
  rest: string[],
): SiteAddress | undefined {
  if (rest.length !== 1) return undefined;
  const name = rest[0] === '' ? 'index.html' : rest[0];
  return isSiteFileName(name)
    ? { kind: 'file', projectId, version, path: name }
    : undefined;
}
