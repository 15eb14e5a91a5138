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
  StoredImagesRepository,
  type StoredImageHead,
} from './stored-images.repository';

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
    (now, limit) => this.images.purgeExpired(now, limit),
    this.logger,
  );

  constructor(private readonly images: StoredImagesRepository) {}

  static isId(value: string): boolean {
    return ID_PATTERN.test(value);
  }

  /**
   * Stores the bytes with their expiry in one statement; returns the id.
   * `id`: one the caller derived (32 hex digits, as unguessable as a
   * random one), to find the image again without being told it.
   */
  async put(
    bytes: Buffer,
    mediaType: string,
    expiresAt: number,
    id = randomBytes(16).toString('hex'),
  ): Promise<StoredImage> {
    await this.images.insert({ id, mediaType, bytes, expiresAt });
    return { id, mediaType, size: bytes.length, expiresAt };
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
    const body = readInSlices(head.size, READ_CHUNK_BYTES, (offset, length) =>
      this.images.readSlice(id, offset, length, Date.now()),
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
}
