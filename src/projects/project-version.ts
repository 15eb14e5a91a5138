import type { EntityTagCondition } from '../common/http/entity-tags';
import { weakMatch } from '../common/http/entity-tags';

/**
 * A project's ETag is its version (the column grows by one on every change),
 * so a tag is valid for exactly one state of the project's own fields.
 */
export const projectETag = (version: number): string => `"${version}"`;

const VERSION = /^[1-9]\d{0,14}$/;

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
    if (!tag.weak && VERSION.test(tag.opaque)) versions.add(Number(tag.opaque));
  }
  return [...versions];
}

/** If-None-Match on a GET: true when the client's copy is current. */
export const isUnchanged = (
  condition: EntityTagCondition | undefined,
  version: number,
): boolean => condition !== undefined && weakMatch(condition, String(version));
