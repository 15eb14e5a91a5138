/**
 * The entity-tag lists of If-Match and If-None-Match (RFC 9110 §8.8.3,
 * §13.1): `*`, or a comma-separated list of `"opaque"` and `W/"opaque"`.
 * A repeated header arrives joined by commas, which is the same list.
 */
export type EntityTagCondition = '*' | EntityTag[];

export interface EntityTag {
  weak: boolean;
  opaque: string;
}

const TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/**
 * The header's tags; undefined when the header is absent. A member that is
 * not a well-formed entity-tag matches nothing, so a malformed If-Match
 * fails its precondition and a malformed If-None-Match never does.
 */
export function parseEntityTags(
  header: string | string[] | undefined,
): EntityTagCondition | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  // Opaque tags never hold a comma or a quote, so a split on commas is exact
  // for every well-formed member.
  for (const member of text.split(',')) {
    const match = TAG.exec(member.trim());
    if (match) tags.push({ weak: match[1] !== undefined, opaque: match[2] });
  }
  return tags;
}

/** If-Match: strong comparison; `*` matches any current representation. */
export function strongMatch(
  condition: EntityTagCondition,
  opaque: string,
): boolean {
  return (
    condition === '*' ||
    condition.some((tag) => !tag.weak && tag.opaque === opaque)
  );
}

/** If-None-Match: weak comparison (a weak tag matches its strong twin). */
export function weakMatch(
  condition: EntityTagCondition,
  opaque: string,
): boolean {
  return condition === '*' || condition.some((tag) => tag.opaque === opaque);
}
