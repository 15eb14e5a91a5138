/**
 * `"userId" = $n` (on `alias` when given): the owner predicate, "of this
 * user", written once for every statement that filters by owner — a
 * project's, or a row that records its project's owner (the change log).
 */
export const ownedBy = (param: number, alias?: string): string =>
  `${alias === undefined ? '' : `"${alias}".`}"userId" = $${param}`;
