import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BatchedPurge } from '../database/batched-purge';
import { readInSlices } from '../database/slice-reader';
import {
  STORED_IMAGE_PART_BYTES,
  StoredImagesRepository,
  type ImageOrigin,
  type StoredImageHead,
} from './stored-images.repository';

/** Bytes read per statement while serving: one part, the memory one response holds. */
export const READ_CHUNK_BYTES = STORED_IMAGE_PART_BYTES;

/**
 * Expired images are looked for this many at a time; each is then deleted
 * PARTS_PER_DELETE parts per statement, so no statement frees more than
 * 2 MB however large the images (a 20 MB image deleted whole held the
 * event loop for over 100 ms on SQLite).
 */
const PURGE_BATCH = 20;
const PARTS_PER_DELETE = 8;

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
    (now, limit) => this.purgeBatch(now, limit),
    this.logger,
  );

  constructor(private readonly images: StoredImagesRepository) {}

  static isId(value: string): boolean {
    return ID_PATTERN.test(value);
  }

  /**
   * Stores the bytes with their expiry; returns the id. The row comes
   * first, then the parts, each a statement of its own: nothing can read
   * the image before its id is returned, and a store that fails midway
   * deletes what it wrote (what a crash leaves is purged at the expiry).
   * `id`: one the caller derived (32 hex digits, as unguessable as a
   * random one), to find the image again without being told it; `origin`:
   * what made the image, when there is something to tell.
   */
  async put(
    bytes: Buffer,
    mediaType: string,
    expiresAt: number,
    options: { id?: string; origin?: ImageOrigin } = {},
  ): Promise<StoredImage> {
    const id = options.id ?? randomBytes(16).toString('hex');
    const origin = options.origin ?? { prompt: null, model: null };
    await this.images.insert({
      id,
      mediaType,
      size: bytes.length,
      expiresAt,
      ...origin,
    });
    try {
      for (let part = 0; part * READ_CHUNK_BYTES < bytes.length; part++) {
        const start = part * READ_CHUNK_BYTES;
        await this.images.insertPart(
          id,
          part,
          bytes.subarray(start, start + READ_CHUNK_BYTES),
        );
      }
    } catch (error) {
      await this.images.delete(id).catch(() => undefined);
      throw error;
    }
    return { id, mediaType, size: bytes.length, expiresAt, ...origin };
  }

  /** The live image's type, size and expiry, or null. */
  head(id: string, now = Date.now()): Promise<StoredImageHead | null> {
    if (!ImageBlobStore.isId(id)) return Promise.resolve(null);
    return this.images.findLive(id, now);
  }

  /**
   * The live image with a stream of its bytes, or null. The stream reads
   * READ_CHUNK_BYTES per statement, only as fast as it is consumed; it
   * fails if the image expires or is purged while it is being read.
   */
  async open(id: string, now = Date.now()): Promise<OpenedImage | null> {
    const head = await this.head(id, now);
    if (!head) return null;
    // Slices of exactly one part each: the part a slice starts in.
    const body = readInSlices(head.size, READ_CHUNK_BYTES, (offset) =>
      this.images.readPart(id, offset / READ_CHUNK_BYTES, Date.now()),
    );
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

  /** Up to `limit` expired images, their parts a few at a time, then them. */
  private async purgeBatch(now: number, limit: number): Promise<number> {
    const expired = await this.images.findExpired(now, limit);
    for (const image of expired) {
      const parts = Math.ceil(image.size / READ_CHUNK_BYTES);
      for (let from = 0; from < parts; from += PARTS_PER_DELETE) {
        await this.images.deleteParts(image.id, from, from + PARTS_PER_DELETE);
      }
      await this.images.delete(image.id, now);
    }
    return expired.length;
  }
}
