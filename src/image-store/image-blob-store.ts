import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { EntityManager } from 'typeorm';
import { BatchedPurge } from '../database/batched-purge';
import { Database } from '../database/database.service';
import { sqlFor } from '../database/sql';
import {
  findLiveImage,
  insertImage,
  purgeExpiredImages,
  readImageSlice,
  type StoredImageHead,
} from './stored-image-records';

/** Bytes read per statement while serving: the memory one response holds. */
export const READ_CHUNK_BYTES = 256 * 1024;

/**
 * Expired images are deleted this many at a time, one statement each: 20
 * images of a few MB is still a short write.
 */
const PURGE_BATCH = 20;

/** 128 random bits, as 32 hex digits. */
const ID_PATTERN = /^[0-9a-f]{32}$/;

export interface StoredImage extends StoredImageHead {
  id: string;
}

export interface OpenedImage extends StoredImage {
  /** The bytes, read from the database a chunk at a time. */
  body: Readable;
}

/**
 * Image bytes in the database, where every replica can read them, each with
 * an expiry after which it cannot be read and is purged in the background.
 * Ids are unguessable, so an id is enough to read an image, and nothing
 * lists them. Knows nothing of logos: the bytes, their type and their
 * lifetime.
 */
@Injectable()
export class ImageBlobStore
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger(ImageBlobStore.name);
  private readonly purger = new BatchedPurge(
    'expired images',
    PURGE_BATCH,
    (now, limit) =>
      this.db.write((manager) =>
        purgeExpiredImages(sqlFor(manager), now, limit),
      ),
    this.logger,
  );

  constructor(private readonly db: Database) {}

  static isId(value: string): boolean {
    return ID_PATTERN.test(value);
  }

  /** Stores the bytes with their expiry in one statement; returns the id. */
  async put(
    bytes: Buffer,
    mediaType: string,
    expiresAt: number,
  ): Promise<StoredImage> {
    const id = randomBytes(16).toString('hex');
    const image = { id, mediaType, bytes, expiresAt };
    if (this.db.serialized) {
      await this.putOnSqlite(image);
    } else {
      await this.db.write((manager) => insertImage(sqlFor(manager), image));
    }
    return { id, mediaType, size: bytes.length, expiresAt };
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
  private async putOnSqlite(image: Parameters<typeof insertImage>[1]) {
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

  /** The live image's type, size and expiry, or null. */
  head(id: string, now = Date.now()): Promise<StoredImageHead | null> {
    if (!ImageBlobStore.isId(id)) return Promise.resolve(null);
    return this.db.read((manager) => findLiveImage(sqlFor(manager), id, now));
  }

  /**
   * The live image with a stream of its bytes, or null. The stream reads
   * READ_CHUNK_BYTES per statement, only as fast as it is consumed; it
   * fails if the image expires or is purged while it is being read.
   */
  async open(id: string, now = Date.now()): Promise<OpenedImage | null> {
    const head = await this.head(id, now);
    if (!head) return null;
    let offset = 0;
    const body = new Readable({
      highWaterMark: READ_CHUNK_BYTES,
      read: () => {
        if (offset >= head.size) {
          body.push(null);
          return;
        }
        const length = Math.min(READ_CHUNK_BYTES, head.size - offset);
        this.db
          .read((manager) =>
            readImageSlice(
              sqlFor(manager),
              id,
              offset,
              length,
              Date.now(),
              dialectOf(manager),
            ),
          )
          .then((chunk) => {
            if (!chunk || chunk.length === 0) {
              body.destroy(new Error('The image expired while it was read'));
              return;
            }
            offset += chunk.length;
            body.push(chunk);
          })
          .catch((error: unknown) =>
            body.destroy(
              error instanceof Error ? error : new Error(String(error)),
            ),
          );
      },
    });
    return { id, ...head, body };
  }

  onApplicationBootstrap(): void {
    this.purger.start();
  }

  onApplicationShutdown(): void {
    this.purger.stop();
  }

  /** Deletes the expired images now (also every minute); how many went. */
  purge(now = Date.now()): Promise<number> {
    return this.purger.run(now);
  }
}

const dialectOf = (manager: EntityManager): 'sqlite' | 'postgres' =>
  manager.connection.options.type === 'better-sqlite3' ? 'sqlite' : 'postgres';
