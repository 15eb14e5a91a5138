import type { Sql } from '../database/sql';

/**
 * The idempotency_keys table in hand-written SQL, the same statements on
 * SQLite and PostgreSQL. Times are epoch milliseconds.
 */

export interface IdempotencyRecord {
  fingerprint: string;
  /** Null while the first request is still being processed. */
  status: number | null;
  body: string | null;
  headers: string | null;
  lockedUntil: number | null;
}

export interface NewRecord {
  id: string;
  fingerprint: string;
  expiresAt: number;
  /** A finished answer, or a lease for one still being worked on. */
  answer?: { status: number; body: string; headers: string };
  lockedUntil?: number;
}

/** Drops the record if it has expired, so its key can be used anew. */
export const deleteIfExpired = (sql: Sql, id: string, now: number) =>
  sql.changes(
    'DELETE FROM "idempotency_keys" WHERE "id" = $1 AND "expiresAt" <= $2',
    [id, now],
  );

/** Inserts the record unless its key is taken; true when inserted. */
export async function insertRecord(
  sql: Sql,
  record: NewRecord,
): Promise<boolean> {
  const inserted = await sql.changes(
    'INSERT INTO "idempotency_keys" ("id", "fingerprint", "status", "body", "headers", "lockedUntil", "expiresAt") VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT ("id") DO NOTHING',
    [
      record.id,
      record.fingerprint,
      record.answer?.status ?? null,
      record.answer?.body ?? null,
      record.answer?.headers ?? null,
      record.lockedUntil ?? null,
      record.expiresAt,
    ],
  );
  return inserted === 1;
}

/** The record of a key that has not expired, or null. */
export async function findLiveRecord(
  sql: Sql,
  id: string,
  now: number,
): Promise<IdempotencyRecord | null> {
  const [row] = await sql.rows<IdempotencyRecord>(
    'SELECT "fingerprint", "status", "body", "headers", "lockedUntil" FROM "idempotency_keys" WHERE "id" = $1 AND "expiresAt" > $2',
    [id, now],
  );
  if (!row) return null;
  return {
    ...row,
    status: row.status === null ? null : Number(row.status),
    lockedUntil: row.lockedUntil === null ? null : Number(row.lockedUntil),
  };
}

/**
 * Takes over a record whose request never finished (its process died):
 * true when this caller now holds the lease.
 */
export async function takeOverAbandoned(
  sql: Sql,
  record: Required<Pick<NewRecord, 'id' | 'fingerprint' | 'lockedUntil'>> & {
    expiresAt: number;
  },
  now: number,
): Promise<boolean> {
  const taken = await sql.changes(
    'UPDATE "idempotency_keys" SET "fingerprint" = $2, "lockedUntil" = $3, "expiresAt" = $4 WHERE "id" = $1 AND "status" IS NULL AND "lockedUntil" <= $5',
    [record.id, record.fingerprint, record.lockedUntil, record.expiresAt, now],
  );
  return taken === 1;
}

/** Stores the finished answer of a leased record. */
export const completeRecord = (
  sql: Sql,
  id: string,
  answer: { status: number; body: string; headers: string },
) =>
  sql.changes(
    'UPDATE "idempotency_keys" SET "status" = $2, "body" = $3, "headers" = $4, "lockedUntil" = NULL WHERE "id" = $1',
    [id, answer.status, answer.body, answer.headers],
  );

/** Frees the key of a request that ended with an answer not worth keeping. */
export const releaseRecord = (sql: Sql, id: string) =>
  sql.changes(
    'DELETE FROM "idempotency_keys" WHERE "id" = $1 AND "status" IS NULL',
    [id],
  );

/** Deletes up to `batch` expired records; resolves to how many it deleted. */
export const purgeExpired = (sql: Sql, now: number, batch: number) =>
  sql.changes(
    'DELETE FROM "idempotency_keys" WHERE "id" IN (SELECT "id" FROM "idempotency_keys" WHERE "expiresAt" <= $1 LIMIT $2)',
    [now, batch],
  );
