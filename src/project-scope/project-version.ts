import type { EntityTagCondition } from '../common/http/entity-tags';
import { parseEntityTags } from '../common/http/entity-tags';
import type {
  ExpectedVersions,
  HeldRepresentations,
} from './version-conditions';

/**
 * A project's ETag is its version (the column grows by one on every change,
 * its assets' included), so a tag is valid for exactly one state of the
 * project. A GET whose answer holds signed asset URLs adds their expiry: the same
 * project with URLs that expire later is a different answer, so a client
 * revalidating with If-None-Match gets the fresh URLs rather than a 304.
 */
export const projectETag = (version: number, urlsExpire?: number): string =>
  `"${entityTagOf(version, urlsExpire)}"`;

const entityTagOf = (version: number, urlsExpire?: number): string =>
  urlsExpire === undefined ? String(version) : `${version}.${urlsExpire}`;

/** The version, and the URLs' expiry a GET may add (ignored by If-Match). */
const VERSION = /^([1-9]\d{0,14})(?:\.\d{1,12})?$/;

/**
 * The versions an If-Match accepts, compared strongly: `*` accepts any, a
 * weak or malformed tag none.
 */
export function acceptedVersions(
  condition: EntityTagCondition,
): '*' | number[] {
  if (condition === '*') return '*';
  const versions = new Set<number>();
  for (const tag of condition) {
    const match = tag.weak ? null : VERSION.exec(tag.opaque);
    if (match) versions.add(Number(match[1]));
  }
  return [...versions];
}

/** If-None-Match on a GET: true when the client's copy is current. */
export const isUnchanged = (
  held: HeldRepresentations | undefined,
  version: number,
  urlsExpire?: number,
): boolean =>
  held !== undefined &&
  (held === '*' || held.includes(entityTagOf(version, urlsExpire)));

/** An If-Match header as the versions it accepts; undefined when absent. */
export function readIfMatch(
  header: string | string[] | undefined,
): ExpectedVersions | undefined {
  const condition = parseEntityTags(header);
  return condition === undefined ? undefined : acceptedVersions(condition);
}

/** An If-None-Match header as the tags the client holds; undefined when absent. */
export function readIfNoneMatch(
  header: string | string[] | undefined,
): HeldRepresentations | undefined {
  const condition = parseEntityTags(header);
  return condition === undefined || condition === '*'
    ? condition
    : condition.map((tag) => tag.opaque);
}
