import { Logger } from '@nestjs/common';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { Database } from '../../database/database.service';
import {
  AssetBytes,
  type AssetContent,
  type AssetRef,
  type RowWriter,
} from './asset-bytes';

/** S3 deletes and lists at most this many keys per request. */
const KEYS_PER_REQUEST = 1000;

export interface S3AssetSettings {
  bucket: string;
  /** Prepended to every key: `${prefix}${projectId}/${assetId}`. */
  prefix: string;
  /**
   * The sweep leaves objects younger than this alone: an asset being kept
   * has its object written before its row commits, and must not be taken
   * for an orphan in between.
   */
  sweepGraceMs: number;
  sweepIntervalMs: number;
}

/** Which of the given assets still have a row. */
export interface AssetRowLookup {
  existingAssetIds(ids: readonly string[]): Promise<Set<string>>;
}

export interface S3ClientOptions {
  /** An S3-compatible server's URL; unset for AWS itself. */
  endpoint?: string;
  region: string;
  /** Bucket in the path rather than the host name, as most non-AWS servers need. */
  forcePathStyle: boolean;
}

/**
 * The client for the asset bucket. Credentials come from the SDK's default
 * chain (environment, shared files, container or instance role), so none
 * ever pass through the service's configuration or logs.
 *
 * Checksums keep the SDK's defaults: an asset is uploaded from a Buffer of
 * known length, so the checksum goes in a header rather than an aws-chunked
 * body, which servers without checksum support (the local test server
 * included) simply ignore. For a provider that rejects the headers,
 * AWS_REQUEST_CHECKSUM_CALCULATION=WHEN_REQUIRED and
 * AWS_RESPONSE_CHECKSUM_VALIDATION=WHEN_REQUIRED turn them off; setting them
 * here would take that choice away.
 */
export function createS3Client(options: S3ClientOptions): S3Client {
  return new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle,
  });
}

/**
 * Asset bytes as objects in an S3-compatible bucket. The object is written
 * before the row, so a committed row always names an object; an object
 * whose row never committed (a crash between the two) or whose delete
 * failed is an orphan, which the sweep deletes once it is older than the
 * grace period.
 */
export class S3AssetBytes extends AssetBytes {
  readonly kind = 's3';
  private readonly logger = new Logger(S3AssetBytes.name);
  private timer?: NodeJS.Timeout;
  private sweeping = false;

  constructor(
    private readonly client: S3Client,
    private readonly settings: S3AssetSettings,
    private readonly rows: AssetRowLookup,
    private readonly db: Database,
  ) {
    super();
  }

  async keep(content: AssetContent, writeRow: RowWriter): Promise<void> {
    const key = this.keyOf(content);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: key,
        Body: content.bytes,
        ContentType: content.contentType,
        ContentLength: content.bytes.length,
        Metadata: { sha256: content.sha256 },
      }),
    );
    try {
      await this.db.transaction(writeRow);
    } catch (error) {
      await this.deleteKeys([key], 'after its row failed');
      throw error;
    }
  }

  async open(ref: AssetRef, byteSize: number): Promise<Readable | null> {
    const key = this.keyOf(ref);
    let body: unknown;
    let length: number | undefined;
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }),
      );
      body = object.Body;
      length = object.ContentLength;
    } catch (error) {
      if (error instanceof S3ServiceException && error.name === 'NoSuchKey') {
        return null;
      }
      throw error;
    }
    if (!(body instanceof Readable)) {
      throw new Error(`The object ${key} did not come as a Node stream`);
    }
    // A response has promised byteSize bytes; a different object cannot keep that promise.
    if (length !== undefined && length !== byteSize) {
      body.destroy();
      throw new Error(
        `The object ${key} holds ${length} bytes where its row says ${byteSize}`,
      );
    }
    return body;
  }

  async forget(refs: readonly AssetRef[]): Promise<void> {
    const keys = refs.map((ref) => this.keyOf(ref));
    for (let start = 0; start < keys.length; start += KEYS_PER_REQUEST) {
      await this.deleteKeys(
        keys.slice(start, start + KEYS_PER_REQUEST),
        'of deleted assets',
      );
    }
  }

  /** Sweeps every sweepIntervalMs until stop(); calling it twice changes nothing. */
  override start(): void {
    if (this.timer) return;
    this.timer = setInterval(
      () => void this.sweepInTurn(),
      this.settings.sweepIntervalMs,
    );
    this.timer.unref();
  }

  override stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Deletes the objects under the prefix that are older than the grace
   * period at `now` and whose asset has no row, a page of keys at a time;
   * returns how many it deleted. A failed run is logged and stops there:
   * the next run starts over. Keys not shaped `${projectId}/${assetId}`
   * under the prefix are not assets' and are left alone.
   */
  async sweepOrphans(now = Date.now()): Promise<number> {
    const cutoff = now - this.settings.sweepGraceMs;
    let deleted = 0;
    let continuationToken: string | undefined;
    try {
      do {
        const page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.settings.bucket,
            Prefix: this.settings.prefix,
            MaxKeys: KEYS_PER_REQUEST,
            ContinuationToken: continuationToken,
          }),
        );
        deleted += await this.deleteOrphansAmong(page.Contents ?? [], cutoff);
        continuationToken = page.IsTruncated
          ? page.NextContinuationToken
          : undefined;
      } while (continuationToken);
    } catch (error) {
      this.logger.warn(`Sweeping orphan objects failed: ${describe(error)}`);
    }
    return deleted;
  }

  /** One run at a time: a slow run makes the next tick a no-op. */
  private async sweepInTurn(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.sweepOrphans();
    } finally {
      this.sweeping = false;
    }
  }

  private async deleteOrphansAmong(
    objects: readonly { Key?: string; LastModified?: Date }[],
    cutoff: number,
  ): Promise<number> {
    const candidates = new Map<string, string>();
    for (const { Key: key, LastModified: modified } of objects) {
      if (!key || !modified || modified.getTime() >= cutoff) continue;
      const assetId = this.assetIdOf(key);
      if (assetId) candidates.set(key, assetId);
    }
    if (candidates.size === 0) return 0;
    const existing = await this.rows.existingAssetIds([
      ...new Set(candidates.values()),
    ]);
    const orphans = [...candidates]
      .filter(([, assetId]) => !existing.has(assetId))
      .map(([key]) => key);
    if (orphans.length === 0) return 0;
    return this.deleteKeys(orphans, 'left without a row');
  }

  /**
   * Deletes up to KEYS_PER_REQUEST objects; returns how many went. Failures
   * are logged, not thrown: the sweep deletes whatever is left behind.
   */
  private async deleteKeys(
    keys: readonly string[],
    why: string,
  ): Promise<number> {
    try {
      const result = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.settings.bucket,
          Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failures = result.Errors ?? [];
      if (failures.length > 0) {
        const first = failures[0];
        this.logger.warn(
          `Deleting ${failures.length} of ${keys.length} objects ${why} failed, e.g. ${first.Key}: ${first.Code} ${first.Message}`,
        );
      }
      return keys.length - failures.length;
    } catch (error) {
      this.logger.warn(
        `Deleting ${keys.length} objects ${why} failed: ${describe(error)}`,
      );
      return 0;
    }
  }

  private keyOf(ref: AssetRef): string {
    return `${this.settings.prefix}${ref.projectId}/${ref.assetId}`;
  }

  /** The asset id of a key shaped `${prefix}${projectId}/${assetId}`, else null. */
  private assetIdOf(key: string): string | null {
    if (!key.startsWith(this.settings.prefix)) return null;
    const parts = key.slice(this.settings.prefix.length).split('/');
    if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
    return parts[1];
  }
}

/**
 * An SDK error's name and message only: never the request or response it
 * carries, whose headers hold the access key id and the signature.
 */
function describe(error: unknown): string {
  return error instanceof Error
    ? `${error.name}: ${error.message}`
    : String(error);
}
