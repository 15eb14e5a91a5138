import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { TooManyRequestsError } from '../../failures/retry-later.error';
import { escapeBraces } from './redis-throttler-storage';

/** What a storage answers (the package does not export the type by name). */
type ThrottlerStorageRecord = Awaited<
  ReturnType<ThrottlerStorage['increment']>
>;

/**
 * A storage that does not answer in this time is treated as unavailable.
 * The Redis storage answers from memory well before it (REDIS_COMMAND_TIMEOUT_MS);
 * this only guards against a storage that hangs in a way nobody foresaw.
 */
const STORAGE_TIMEOUT_MS = 1000;

export interface ClientRateLimitOptions {
  /** Names these counts in the storage, apart from any other limit. */
  name: string;
  /** The segment of the storage key before the client. */
  keySegment: string;
  /** Requests per client and window; 0 = no limit. */
  limit: number;
  windowSeconds: number;
  keyPrefix: string;
  /** The 429's text, written for the client. */
  message: string;
}

/**
 * `limit` requests per client IP and window, counted in the shared
 * throttler storage (Redis when REDIS_URL is set). A client over its limit
 * is refused for one window from that moment (the throttler's block), with
 * Retry-After saying how long is left.
 */
export class ClientRateLimit {
  private readonly logger: Logger;
  private readonly windowMs: number;

  constructor(
    private readonly storage: ThrottlerStorage,
    private readonly options: ClientRateLimitOptions,
  ) {
    this.logger = new Logger(`RateLimit:${options.name}`);
    this.windowMs = options.windowSeconds * 1000;
  }

  get enabled(): boolean {
    return this.options.limit > 0;
  }

  /** Counts one request of `client`; throws TooManyRequestsError past the limit. */
  async consume(client: string): Promise<void> {
    if (!this.enabled) return;
    const { name, keySegment, limit, keyPrefix, message } = this.options;
    let record: ThrottlerStorageRecord;
    try {
      record = await withTimeout(
        // The client is the key's hash tag: on Redis Cluster each client's
        // counts share a slot of their own (RedisThrottlerStorage.hitKeys).
        this.storage.increment(
          `${keyPrefix}${keySegment}:{${escapeBraces(client)}}`,
          this.windowMs,
          limit,
          this.windowMs,
          name,
        ),
        STORAGE_TIMEOUT_MS,
      );
    } catch (error) {
      // Fail open: while the shared counter is unreachable the route keeps
      // working; a rate limit is a brake, not a gate.
      this.logger.warn(
        `Rate limit not applied, storage unavailable: ${error instanceof Error ? error.message : String(error)}`,
      );
      return;
    }
    if (record.isBlocked) {
      throw new TooManyRequestsError(
        message,
        Math.max(1, record.timeToBlockExpire),
      );
    }
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
