import { Logger } from '@nestjs/common';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { ClientClosedRequestError } from '../../failures/client-closed-request.error';
import { AssetStorageUnavailableError } from '../assets.errors';
import {
  AssetBytes,
  type AssetContent,
  type AssetRef,
  type StagedBytes,
} from './asset-bytes';
import type { DeploymentIdentity } from './deployment-identity';

/** S3 deletes and lists at most this many keys per request. */
const KEYS_PER_REQUEST = 1000;

/** The object metadata naming the deployment that wrote an object. */
export const DEPLOYMENT_METADATA = 'deployment';

/** The bucket check before a paid call and for readiness: short, and cached. */
const BUCKET_CHECK_TIMEOUT_MS = 5000;
const BUCKET_OK_CACHE_MS = 5000;
const BUCKET_FAILED_CACHE_MS = 2000;

/** Why an object was deleted: the label of asset_objects_deleted_total. */
export type DeletionReason = 'orphan' | 'asset_deleted' | 'row_failed';

const REASON_TEXT: Record<DeletionReason, string> = {
  orphan:
    'orphan: written by this deployment, older than the grace period, no asset row',
  asset_deleted: 'its asset was deleted',
  row_failed: "its asset's row failed to commit",
};

export interface S3AssetSettings {
  bucket: string;
  /** Prepended to every key: `${prefix}${projectId}/${assetId}`; ends with `/`. */
  prefix: string;
  /**
   * The sweep leaves objects younger than this alone: an asset being kept
   * has its object written before its row commits, and must not be taken
   * for an orphan in between.
   */
  sweepGraceMs: number;
  sweepIntervalMs: number;
  /** One S3 call's limit (SDK retries included); a read's until its bytes start. */
  requestTimeoutMs: number;
  /** One sweep run's limit: it stops there, and the next run starts over. */
  sweepMaxDurationMs: number;
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
  /** Giving up opening a connection. */
  connectTimeoutMs?: number;
  /** Giving up a connection on which nothing moves for this long. */
  idleTimeoutMs?: number;
}

/**
 * The client for the asset bucket. Credentials come from the SDK's default
 * chain (environment, shared files, container or instance role), so none
 * ever pass through the service's configuration or logs.
 *
 * Without timeouts the SDK waits forever on a bucket that accepts a
 * connection and never answers; the idle timeout also ends a read whose
 * bytes stop coming halfway.
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
    requestHandler: {
      connectionTimeout: options.connectTimeoutMs,
      socketTimeout: options.idleTimeoutMs,
    },
  });
}

/** The bucket's last check: `failure` is undefined while it runs. */
interface BucketCheck {
  at: number;
  failure: string | null | undefined;
  outcome: Promise<string | null>;
}

/** A call that ran past its limit; the reason its signal was aborted with. */
class S3CallTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = 'S3CallTimeout';
  }
}

/**
 * Asset bytes as objects in an S3-compatible bucket. The object is written
 * before the row, so a committed row always names an object; an object
 * whose row never committed (a crash between the two) or whose delete
 * failed is an orphan, which the sweep deletes once it is older than the
 * grace period — only when it carries this deployment's identity, so
 * objects someone else wrote under the prefix are never deleted.
 *
 * Every call has a limit (requestTimeoutMs) and follows the request's
 * abort signal; a request whose storage fails gets 503
 * (AssetStorageUnavailableError).
 */
export class S3AssetBytes extends AssetBytes {
  readonly kind = 's3';
  private readonly logger = new Logger(S3AssetBytes.name);
  private timer?: NodeJS.Timeout;
  private sweeping = false;
  private bucketCheck?: BucketCheck;

  constructor(
    private readonly client: S3Client,
    private readonly settings: S3AssetSettings,
    private readonly rows: AssetRowLookup,
    private readonly identity: DeploymentIdentity,
    private readonly onDeleted: (
      reason: DeletionReason,
      count: number,
    ) => void = () => {},
  ) {
    super();
  }

  override async checkReachable(): Promise<void> {
    const failure = await this.bucketOutcome();
    if (failure !== null) throw new AssetStorageUnavailableError(failure);
  }

  async stage(
    content: AssetContent,
    signal?: AbortSignal,
  ): Promise<StagedBytes> {
    const key = this.keyOf(content);
    const deployment = await this.identity.id();
    await this.forRequest(
      this.call(
        `Writing ${key}`,
        (abortSignal) =>
          this.client.send(
            new PutObjectCommand({
              Bucket: this.settings.bucket,
              Key: key,
              Body: content.bytes,
              ContentType: content.contentType,
              ContentLength: content.bytes.length,
              Metadata: {
                sha256: content.sha256,
                [DEPLOYMENT_METADATA]: deployment,
              },
            }),
            { abortSignal },
          ),
        signal,
      ),
    );
    return {
      large: false,
      writeIn: () => Promise.resolve(),
      discard: async () => {
        await this.deleteKeys([key], 'row_failed');
      },
    };
  }

  async open(
    ref: AssetRef,
    byteSize: number,
    signal?: AbortSignal,
  ): Promise<Readable | null> {
    const key = this.keyOf(ref);
    let body: unknown;
    let length: number | undefined;
    try {
      // The limit runs until the bytes start: a slow reader may take longer.
      const object = await this.call(
        `Reading ${key}`,
        (abortSignal) =>
          this.client.send(
            new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }),
            { abortSignal },
          ),
        signal,
      );
      body = object.Body;
      length = object.ContentLength;
    } catch (error) {
      if (error instanceof S3ServiceException && error.name === 'NoSuchKey') {
        return null;
      }
      throw asRequestFailure(error);
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
        'asset_deleted',
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
   * period at `now`, whose asset has no row and which this deployment
   * wrote (their metadata names it); returns how many it deleted. A failed
   * run, or one past sweepMaxDurationMs, is logged and stops there: the
   * next run starts over. Keys not shaped `${projectId}/${assetId}` under
   * the prefix are not assets' and are left alone.
   */
  async sweepOrphans(now = Date.now()): Promise<number> {
    const cutoff = now - this.settings.sweepGraceMs;
    const run = new AbortController();
    const limit = setTimeout(
      () =>
        run.abort(
          new S3CallTimeout('The sweep', this.settings.sweepMaxDurationMs),
        ),
      this.settings.sweepMaxDurationMs,
    );
    const tally = { deleted: 0, foreign: 0 };
    let continuationToken: string | undefined;
    try {
      const deployment = await this.identity.id();
      do {
        const token = continuationToken;
        const page = await this.call(
          'Listing the prefix',
          (abortSignal) =>
            this.client.send(
              new ListObjectsV2Command({
                Bucket: this.settings.bucket,
                Prefix: this.settings.prefix,
                MaxKeys: KEYS_PER_REQUEST,
                ContinuationToken: token,
              }),
              { abortSignal },
            ),
          run.signal,
        );
        await this.deleteOrphansAmong(
          page.Contents ?? [],
          cutoff,
          deployment,
          run.signal,
          tally,
        );
        continuationToken = page.IsTruncated
          ? page.NextContinuationToken
          : undefined;
      } while (continuationToken);
    } catch (error) {
      this.logger.warn(`Sweeping orphan objects failed: ${describe(error)}`);
    } finally {
      clearTimeout(limit);
    }
    if (tally.foreign > 0) {
      this.logger.log(
        `The sweep left ${tally.foreign} objects without a row alone: they do not carry this deployment's identity (written before it, or by another deployment)`,
      );
    }
    return tally.deleted;
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
    deployment: string,
    signal: AbortSignal,
    tally: { deleted: number; foreign: number },
  ): Promise<void> {
    const candidates = new Map<string, string>();
    for (const { Key: key, LastModified: modified } of objects) {
      if (!key || !modified || modified.getTime() >= cutoff) continue;
      const assetId = this.assetIdOf(key);
      if (assetId) candidates.set(key, assetId);
    }
    if (candidates.size === 0) return;
    const existing = await this.rows.existingAssetIds([
      ...new Set(candidates.values()),
    ]);
    const orphans: string[] = [];
    for (const [key, assetId] of candidates) {
      if (existing.has(assetId)) continue;
      // Only what this deployment wrote: a listing carries no metadata.
      if ((await this.writerOf(key, signal)) === deployment) orphans.push(key);
      else tally.foreign++;
    }
    if (orphans.length > 0) {
      tally.deleted += await this.deleteKeys(orphans, 'orphan', signal);
    }
  }

  /** The deployment an object's metadata names; undefined when none (or it is gone). */
  private async writerOf(
    key: string,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    try {
      const head = await this.call(
        `Reading ${key}'s metadata`,
        (abortSignal) =>
          this.client.send(
            new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }),
            { abortSignal },
          ),
        signal,
      );
      return head.Metadata?.[DEPLOYMENT_METADATA];
    } catch (error) {
      if (error instanceof S3ServiceException && error.name === 'NotFound') {
        return undefined;
      }
      throw error;
    }
  }

  /**
   * Deletes up to KEYS_PER_REQUEST objects, logging each and counting them;
   * returns how many went. Failures are logged, not thrown: the sweep
   * deletes whatever is left behind.
   */
  private async deleteKeys(
    keys: readonly string[],
    reason: DeletionReason,
    signal?: AbortSignal,
  ): Promise<number> {
    try {
      const result = await this.call(
        `Deleting ${keys.length} objects`,
        (abortSignal) =>
          this.client.send(
            new DeleteObjectsCommand({
              Bucket: this.settings.bucket,
              Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
            }),
            { abortSignal },
          ),
        signal,
      );
      const failures = result.Errors ?? [];
      if (failures.length > 0) {
        const first = failures[0];
        this.logger.warn(
          `Deleting ${failures.length} of ${keys.length} objects (${REASON_TEXT[reason]}) failed, e.g. ${first.Key}: ${first.Code} ${first.Message}`,
        );
      }
      const failed = new Set(failures.map((failure) => failure.Key));
      const gone = keys.filter((key) => !failed.has(key));
      for (const key of gone) {
        this.logger.log(`Deleted object ${key}: ${REASON_TEXT[reason]}`);
      }
      if (gone.length > 0) this.onDeleted(reason, gone.length);
      return gone.length;
    } catch (error) {
      this.logger.warn(
        `Deleting ${keys.length} objects (${REASON_TEXT[reason]}) failed: ${describe(error)}`,
      );
      return 0;
    }
  }

  /**
   * The bucket's last check, made again once it is older than its cache
   * time: null when the bucket answered, else why not. Concurrent callers
   * share one check.
   */
  private bucketOutcome(): Promise<string | null> {
    const last = this.bucketCheck;
    if (last) {
      if (last.failure === undefined) return last.outcome;
      const cacheMs =
        last.failure === null ? BUCKET_OK_CACHE_MS : BUCKET_FAILED_CACHE_MS;
      if (Date.now() - last.at < cacheMs) return last.outcome;
    }
    const check: BucketCheck = {
      at: Date.now(),
      failure: undefined,
      outcome: this.call(
        'Checking the bucket',
        (abortSignal) =>
          this.client.send(
            new HeadBucketCommand({ Bucket: this.settings.bucket }),
            { abortSignal },
          ),
        undefined,
        Math.min(BUCKET_CHECK_TIMEOUT_MS, this.settings.requestTimeoutMs),
      ).then(
        () => null,
        (error: unknown) => describe(error),
      ),
    };
    void check.outcome.then((failure) => {
      check.failure = failure;
      check.at = Date.now();
    });
    this.bucketCheck = check;
    return check.outcome;
  }

  /**
   * Runs one S3 call with an AbortSignal that aborts after `timeoutMs` or
   * when `signal` (the request's, or the sweep run's) aborts, whichever
   * comes first; the call then rejects with that reason.
   */
  private async call<T>(
    what: string,
    send: (abortSignal: AbortSignal) => Promise<T>,
    signal: AbortSignal | undefined,
    timeoutMs = this.settings.requestTimeoutMs,
  ): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new S3CallTimeout(what, timeoutMs)),
      timeoutMs,
    );
    const follow = () => controller.abort(signal?.reason);
    if (signal?.aborted) follow();
    else signal?.addEventListener('abort', follow, { once: true });
    try {
      return await send(controller.signal);
    } catch (error) {
      throw controller.signal.aborted
        ? (controller.signal.reason as unknown)
        : error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', follow);
    }
  }

  /**
   * A request's storage call: its failure becomes a 503, except a client
   * that left (nothing is answered to it).
   */
  private async forRequest<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      throw asRequestFailure(error);
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

/** A 503, except for a client that left (nothing is answered to it). */
function asRequestFailure(error: unknown): Error {
  if (error instanceof ClientClosedRequestError) return error;
  return new AssetStorageUnavailableError(describe(error));
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
