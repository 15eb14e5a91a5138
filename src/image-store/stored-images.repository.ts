import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../database/database.service';
import { sqlFor, type Sql } from '../database/sql';

/**
 * The only code that reads and writes the stored_images table, in
 * hand-written SQL, the same statements on SQLite (BLOB) and PostgreSQL
 * (bytea), listed in sql/<dialect>/stored-images.repository.sql. Times are epoch
 * milliseconds.
 */

export interface StoredImageHead {
  mediaType: string;
  size: number;
  expiresAt: number;
}

/** One statement: the bytes and their expiry arrive together or not at all. */
/** An image to store: its bytes, their type and when they expire. */
export interface NewImage {
  id: string;
  mediaType: string;
  bytes: Buffer;
  expiresAt: number;
}

const insertImage = (sql: Sql, image: NewImage) =>
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
async function findLiveImage(
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
async function readImageSlice(
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
const purgeExpiredImages = (sql: Sql, now: number, batch: number) =>
  sql.changes(
    'DELETE FROM "stored_images" WHERE "id" IN (SELECT "id" FROM "stored_images" WHERE "expiresAt" <= $1 LIMIT $2)',
    [now, batch],
  );

const dialectOf = (manager: EntityManager): 'sqlite' | 'postgres' =>
  manager.connection.options.type === 'better-sqlite3' ? 'sqlite' : 'postgres';

@Injectable()
export class StoredImagesRepository {
  constructor(private readonly db: Database) {}

  /** One statement: the bytes and their expiry arrive together or not at all. */
  async insert(image: NewImage): Promise<void> {
    if (this.db.serialized) {
      await this.insertOnSqlite(image);
    } else {
      await this.db.write((manager) => insertImage(sqlFor(manager), image));
    }
  }

  /** What a response needs before its body: type, length, expiry; or null. */
  findLive(id: string, now: number): Promise<StoredImageHead | null> {
    return this.db.read((manager) => findLiveImage(sqlFor(manager), id, now));
  }

  /** `length` bytes from `offset`, or null once the image is gone. */
  readSlice(
    id: string,
    offset: number,
    length: number,
    now: number,
  ): Promise<Buffer | null> {
    return this.db.read((manager) =>
      readImageSlice(
        sqlFor(manager),
        id,
        offset,
        length,
        now,
        dialectOf(manager),
      ),
    );
  }

  /** Deletes up to `batch` expired images; resolves to how many went. */
  purgeExpired(now: number, batch: number): Promise<number> {
    return this.db.write((manager) =>
      purgeExpiredImages(sqlFor(manager), now, batch),
    );
  }

  /**
   * better-sqlite3 writes on the event loop's thread. A 4 MB image is about
   * 1,000 pages, so its commit would also start SQLite's automatic WAL
   * checkpoint (at 1,000 pages), which copies them again into the database
   * file: together about 45 ms of held loop on the reference machine, at
   * the 50 ms limit. So the automatic checkpoint is held off for this one
   * statement (an INSERT on its own commits by itself, atomically) and the
   * skipped checkpoint runs on a later turn of the loop, each step well
   * under the limit (docs/reliability.md).
   */
  private async insertOnSqlite(image: NewImage): Promise<void> {
    await this.db.read(async (manager) => {
      const [setting] = await manager.query<
        Array<{ wal_autocheckpoint?: number }>
      >('PRAGMA wal_autocheckpoint');
      const previous = Number(setting?.wal_autocheckpoint ?? 1000);
      await manager.query('PRAGMA wal_autocheckpoint = 0');
      try {
        await insertImage(sqlFor(manager), image);
      } finally {
        await manager.query(
          `PRAGMA wal_autocheckpoint = ${Number.isSafeInteger(previous) ? previous : 1000}`,
        );
      }
    });
    await new Promise<void>((resolve) => setImmediate(resolve));
    void this.db
      .read((manager) => manager.query('PRAGMA wal_checkpoint(PASSIVE)'))
      .catch(() => undefined);
  }
}
