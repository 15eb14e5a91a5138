import type { Sql } from '../database/sql';

/**
 * The stored_images table in hand-written SQL, the same statements on
 * SQLite (BLOB) and PostgreSQL (bytea). Times are epoch milliseconds.
 */

export interface StoredImageHead {
  mediaType: string;
  size: number;
  expiresAt: number;
}

/** One statement: the bytes and their expiry arrive together or not at all. */
export const insertImage = (
  sql: Sql,
  image: { id: string; mediaType: string; bytes: Buffer; expiresAt: number },
) =>
  sql.changes(
    'INSERT INTO "stored_images" ("id", "mediaType", "size", "bytes", "expiresAt") VALUES ($1, $2, $3, $4, $5)',
    [
      image.id,
      image.mediaType,
      image.bytes.length,
      image.bytes,
      image.expiresAt,
    ],
  );

/** What a response needs before its body: type, length, expiry. */
export async function findLiveImage(
  sql: Sql,
  id: string,
  now: number,
): Promise<StoredImageHead | null> {
  const [row] = await sql.rows<{
    mediaType: string;
    size: number | string;
    expiresAt: number | string;
  }>(
    'SELECT "mediaType", "size", "expiresAt" FROM "stored_images" WHERE "id" = $1 AND "expiresAt" > $2',
    [id, now],
  );
  if (!row) return null;
  return {
    mediaType: row.mediaType,
    size: Number(row.size),
    expiresAt: Number(row.expiresAt),
  };
}

/**
 * `length` bytes from `offset` (0-based), or null once the image has
 * expired or is gone. substr on a BLOB and substring on a bytea both count
 * bytes from 1.
 */
export async function readImageSlice(
  sql: Sql,
  id: string,
  offset: number,
  length: number,
  now: number,
  dialect: 'sqlite' | 'postgres',
): Promise<Buffer | null> {
  const slice =
    dialect === 'sqlite'
      ? 'substr("bytes", $2, $3)'
      : 'substring("bytes" from $2 for $3)';
  const [row] = await sql.rows<{ chunk: Buffer | Uint8Array | null }>(
    `SELECT ${slice} AS "chunk" FROM "stored_images" WHERE "id" = $1 AND "expiresAt" > $4`,
    [id, offset + 1, length, now],
  );
  if (!row || row.chunk === null) return null;
  return Buffer.isBuffer(row.chunk) ? row.chunk : Buffer.from(row.chunk);
}

/** Deletes up to `batch` expired images; resolves to how many it deleted. */
export const purgeExpiredImages = (sql: Sql, now: number, batch: number) =>
  sql.changes(
    'DELETE FROM "stored_images" WHERE "id" IN (SELECT "id" FROM "stored_images" WHERE "expiresAt" <= $1 LIMIT $2)',
    [now, batch],
  );
