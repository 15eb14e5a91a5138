import { jsonSqlFor, type JsonSql } from '../database/sql';

/**
 * Case folding for `q` and `sort=name`, the same on SQLite and PostgreSQL:
 * ASCII letters only. SQLite's lower() and LIKE fold ASCII only (without
 * the ICU extension, which better-sqlite3 does not build); PostgreSQL's
 * lower() and ILIKE fold every letter by the database's locale. Folding
 * ASCII on both (translate() on PostgreSQL) gives one answer wherever the
 * service runs: `q=launch` finds "LAUNCH", while `q=é` finds "é" and not
 * "É". Sorting compares the folded text's bytes on both (SQLite's BINARY,
 * PostgreSQL's "C" collation), so the pages come in the same order too.
 */
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';

const isSqlite = (json: JsonSql) => json === jsonSqlFor('better-sqlite3');

/** An SQL text expression with its ASCII letters lower-cased. */
export function foldedSql(json: JsonSql, column: string): string {
  return isSqlite(json)
    ? `lower(${column})`
    : `translate(${column}, '${UPPER}', '${LOWER}')`;
}

/**
 * The first NAME_KEY_LENGTH characters of a name are what `sort=name`
 * orders by (then the id). A create's names are at most that long; PATCH
 * stores any length, and an index entry of PostgreSQL holds at most about
 * 2.7 KB, so a key of the whole name would fail the write of a long one.
 */
export const NAME_KEY_LENGTH = 100;

/**
 * The name as `sort=name` orders it: folded, its first NAME_KEY_LENGTH
 * characters, compared byte by byte. The migration's indexes are on this
 * very expression (an index serves an ORDER BY only when the texts match).
 */
export function nameKeySql(json: JsonSql, alias: string): string {
  const key = `substr(${foldedSql(json, `"${alias}"."name"`)}, 1, ${NAME_KEY_LENGTH})`;
  return isSqlite(json) ? key : `${key} COLLATE "C"`;
}

/** `text` with its ASCII letters lower-cased, as foldedSql does. */
export const foldAscii = (text: string) =>
  text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/**
 * The LIKE pattern (with ESCAPE '\') for "contains `q`": folded, and its
 * `%`, `_` and `\` escaped so they match themselves.
 */
export const containsPattern = (q: string) =>
  `%${foldAscii(q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** "contains" on a folded column; ESCAPE written the same for both. */
export function containsSql(
  json: JsonSql,
  column: string,
  param: string,
): string {
  return `${foldedSql(json, column)} LIKE ${param} ESCAPE '\\'`;
}
