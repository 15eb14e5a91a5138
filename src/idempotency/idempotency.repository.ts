import { Injectable } from '@nestjs/common';
import {
  Database,
  managerOf,
  type Transaction,
} from '../database/database.service';
import { sqlFor, type Sql } from '../database/sql';

/**
 * The only code that reads and writes the idempotency_keys table, in
 * hand-written SQL, the same statements on SQLite and PostgreSQL (listed in
 * sql/<dialect>/idempotency.repository.sql). Times are epoch milliseconds.
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

/** A record's answer as stored: status, body, headers as JSON text. */
export interface StoredAnswer {
  status: number;
  body: string;
  headers: string;
}

/** A lease on a key whose work is in progress. */
export type Lease = Required<
  Pick<NewRecord, 'id' | 'fingerprint' | 'lockedUntil'>
> & { expiresAt: number };

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  /**
   * In `transaction`: drops the key's record if it has expired, then
   * stores `record` unless the key is taken; true when stored.
   */
  async insertInTransaction(
    transaction: Transaction,
    record: NewRecord,
    now: number,
  ): Promise<boolean> {
    const sql = sqlFor(managerOf(transaction));
    await deleteIfExpired(sql, record.id, now);
    return insertRecord(sql, record);
  }

  /**
   * Takes a lease on the key in one transaction: a new record, or one whose
   * lease ran out (its process died); true when this caller holds it.
   */
  lease(lease: Lease, now: number): Promise<boolean> {
    return this.db.write(async (manager) => {
      const sql = sqlFor(manager);
      await deleteIfExpired(sql, lease.id, now);
      return (
        (await insertRecord(sql, lease)) ||
        (await takeOverAbandoned(sql, lease, now))
      );
    });
  }

  /** The record of a key that has not expired, or null. */
  findLive(id: string, now: number): Promise<IdempotencyRecord | null> {
    return this.db.read((manager) => findLiveRecord(sqlFor(manager), id, now));
  }

  /** Stores the finished answer of a leased record. */
  async complete(id: string, answer: StoredAnswer): Promise<void> {
    await this.db.write((manager) =>
      completeRecord(sqlFor(manager), id, answer),
    );
  }

  /** The same, inside the transaction of the work it answers. */
  async completeInTransaction(
    transaction: Transaction,
    id: string,
    answer: StoredAnswer,
  ): Promise<void> {
    await completeRecord(sqlFor(managerOf(transaction)), id, answer);
  }

  /** Frees the key of a request that ended with an answer not worth keeping. */
  async release(id: string): Promise<void> {
    await this.db.write((manager) => releaseRecord(sqlFor(manager), id));
  }

  /** Deletes up to `batch` expired records; resolves to how many went. */
  purgeExpired(now: number, batch: number): Promise<number> {
    return this.db.write((manager) =>
      purgeExpired(sqlFor(manager), now, batch),
    );
  }
}

/** Drops the record if it has expired, so its key can be used anew. */
const deleteIfExpired = (sql: Sql, id: string, now: number) =>
  sql.changes(
    'DELETE FROM "idempotency_keys" WHERE "id" = $1 AND "expiresAt" <= $2',
    [id, now],
  );

/** Inserts the record unless its key is taken; true when inserted. */
async function insertRecord(sql: Sql, record: NewRecord): Promise<boolean> {
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
async function findLiveRecord(
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
async function takeOverAbandoned(
  sql: Sql,
  record: Lease,
  now: number,
): Promise<boolean> {
  const taken = await sql.changes(
    'UPDATE "idempotency_keys" SET "fingerprint" = $2, "lockedUntil" = $3, "expiresAt" = $4 WHERE "id" = $1 AND "status" IS NULL AND "lockedUntil" <= $5',
    [record.id, record.fingerprint, record.lockedUntil, record.expiresAt, now],
  );
  return taken === 1;
}

/** Stores the finished answer of a leased record. */
const completeRecord = (sql: Sql, id: string, answer: StoredAnswer) =>
  sql.changes(
    'UPDATE "idempotency_keys" SET "status" = $2, "body" = $3, "headers" = $4, "lockedUntil" = NULL WHERE "id" = $1',
    [id, answer.status, answer.body, answer.headers],
  );

/** Frees the key of a request that ended with an answer not worth keeping. */
const releaseRecord = (sql: Sql, id: string) =>
  sql.changes(
    'DELETE FROM "idempotency_keys" WHERE "id" = $1 AND "status" IS NULL',
    [id],
  );

/** Deletes up to `batch` expired records; resolves to how many it deleted. */
const purgeExpired = (sql: Sql, now: number, batch: number) =>
  sql.changes(
    'DELETE FROM "idempotency_keys" WHERE "id" IN (SELECT "id" FROM "idempotency_keys" WHERE "expiresAt" <= $1 LIMIT $2)',
    [now, batch],
  );
