import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.service';
import { sqlFor, type Sql } from '../database/sql';

/**
 * The only code that reads and writes the stored_images and
 * stored_image_parts tables, in hand-written SQL, the same statements on
 * SQLite (BLOB) and PostgreSQL (bytea), listed in
 * sql/<dialect>/stored-images.repository.sql. Times are epoch milliseconds.
 *
 * An image's bytes are parts of STORED_IMAGE_PART_BYTES, one row each, as
 * kept assets' are: a statement reads, writes or deletes parts without
 * touching the others. (On SQLite, substr on one BLOB loads all of it, so
 * serving an image in slices of one BLOB cost the square of its size.)
 */

/** The size of every part but the last. */
export const STORED_IMAGE_PART_BYTES = 256 * 1024;

/** What made an image (hosted logos): null when it was not recorded. */
export interface ImageOrigin {
  prompt: string | null;
  model: string | null;
}

export interface StoredImageHead extends ImageOrigin {
  mediaType: string;
  size: number;
  expiresAt: number;
}

/** An image's row, before its bytes. */
export interface NewImage extends ImageOrigin {
  id: string;
  mediaType: string;
  size: number;
  expiresAt: number;
}

/** An expired image: what deleting its parts needs. */
export interface ExpiredImage {
  id: string;
  size: number;
}

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
    prompt: string | null;
    model: string | null;
  }>(
    'SELECT "mediaType", "size", "expiresAt", "prompt", "model" FROM "stored_images" WHERE "id" = $1 AND "expiresAt" > $2',
    [id, now],
  );
  if (!row) return null;
  return {
    mediaType: row.mediaType,
    size: Number(row.size),
    expiresAt: Number(row.expiresAt),
    prompt: row.prompt,
    model: row.model,
  };
}

@Injectable()
export class StoredImagesRepository {
  constructor(private readonly db: Database) {}

  /** The image's row; its parts follow (insertPart). */
  async insert(image: NewImage): Promise<void> {
    await this.db.write((manager) =>
      sqlFor(manager).changes(
        'INSERT INTO "stored_images" ("id", "mediaType", "size", "expiresAt", "prompt", "model") VALUES ($1, $2, $3, $4, $5, $6)',
        [
          image.id,
          image.mediaType,
          image.size,
          image.expiresAt,
          image.prompt,
          image.model,
        ],
      ),
    );
  }

  /**
   * One part of an image's bytes, a statement (and on SQLite a turn of
   * the write queue) of its own: 256 KB is a short write.
   */
  async insertPart(id: string, part: number, bytes: Buffer): Promise<void> {
    await this.db.write((manager) =>
      sqlFor(manager).changes(
        'INSERT INTO "stored_image_parts" ("imageId", "part", "bytes") VALUES ($1, $2, $3)',
        [id, part, bytes],
      ),
    );
  }

  /** What a response needs before its body: type, length, expiry; or null. */
  findLive(id: string, now: number): Promise<StoredImageHead | null> {
    return this.db.read((manager) => findLiveImage(sqlFor(manager), id, now));
  }

  /** One part of a live image, or null once the image has expired or is gone. */
  readPart(id: string, part: number, now: number): Promise<Buffer | null> {
    return this.db.read(async (manager) => {
      const [row] = await sqlFor(manager).rows<{
        bytes: Buffer | Uint8Array | null;
      }>(
        'SELECT p."bytes" AS "bytes" FROM "stored_image_parts" p JOIN "stored_images" i ON i."id" = p."imageId" WHERE p."imageId" = $1 AND p."part" = $2 AND i."expiresAt" > $3',
        [id, part, now],
      );
      if (!row || row.bytes === null) return null;
      return Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes);
    });
  }

  /** Up to `limit` images expired at `now`. */
  async findExpired(now: number, limit: number): Promise<ExpiredImage[]> {
    const rows = await this.db.read((manager) =>
      sqlFor(manager).rows<{ id: string; size: number | string }>(
        'SELECT "id", "size" FROM "stored_images" WHERE "expiresAt" <= $1 LIMIT $2',
        [now, limit],
      ),
    );
    return rows.map((row) => ({ id: row.id, size: Number(row.size) }));
  }

  /** Deletes the image's parts numbered from `from` up to `to` (excluded). */
  async deleteParts(id: string, from: number, to: number): Promise<void> {
    await this.db.write((manager) =>
      sqlFor(manager).changes(
        'DELETE FROM "stored_image_parts" WHERE "imageId" = $1 AND "part" >= $2 AND "part" < $3',
        [id, from, to],
      ),
    );
  }

  /**
   * Deletes the image's row (and any part left) if it has expired by
   * `now`, or at once when `now` is omitted (a store that failed midway).
   */
  async delete(id: string, now = Number.MAX_SAFE_INTEGER): Promise<void> {
    await this.db.write((manager) =>
      sqlFor(manager).changes(
        'DELETE FROM "stored_images" WHERE "id" = $1 AND "expiresAt" <= $2',
        [id, now],
      ),
    );
  }
}
