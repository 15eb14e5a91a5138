import { Inject, Injectable, Logger } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { appConfig } from '../../config/app.config';
import type { AppConfig } from '../../config/environment';
import { TooManyRequestsError } from '../common/errors/retry-later.error';
import { LOGO_RATE_LIMITED_MESSAGE } from './logo.constants';

/** What a storage answers (the package does not export the type by name). */
type ThrottlerStorageRecord = Awaited<
  ReturnType<ThrottlerStorage['increment']>
>;

/** A name for these counts in the storage, apart from any other limit. */
const THROTTLER_NAME = 'logo-generate';

/** A storage that does not answer in this time is treated as unavailable. */
const STORAGE_TIMEOUT_MS = 1000;

/**
 * LOGO_RATE_LIMIT upstream-bound requests per client IP and
 * LOGO_RATE_WINDOW_S. LogoService consults it only for requests that passed
 * validation and would call the paid API, so an invalid request or one
 * made while no key is configured never uses up a client's budget. A client
 * over its limit is refused for one window from that moment (the throttler's
 * block), with Retry-After saying how long is left.
 */
@Injectable()
export class LogoRateLimit {
  private readonly logger = new Logger('LogoRateLimit');
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly keyPrefix: string;

  constructor(
    @Inject(ThrottlerStorage) private readonly storage: ThrottlerStorage,
    @Inject(appConfig.KEY) config: AppConfig,
  ) {
    this.limit = config.logoRateLimit.limit;
    this.windowMs = config.logoRateLimit.windowSeconds * 1000;
    this.keyPrefix = config.redis.keyPrefix;
  }

  get enabled(): boolean {
    return this.limit > 0;
  }

  /** Counts one request of `client`; throws TooManyRequestsError past the limit. */
  async consume(client: string): Promise<void> {
    if (!this.enabled) return;
    let record: ThrottlerStorageRecord;
    try {
      record = await withTimeout(
        this.storage.increment(
          `${this.keyPrefix}logo-rate:${client}`,
          this.windowMs,
          this.limit,
          this.windowMs,
          THROTTLER_NAME,
        ),
        STORAGE_TIMEOUT_MS,
      );
    } catch (error) {
      // Fail open: while the shared counter is unreachable, logo generation
      // keeps working; IMAGE_API_CONCURRENCY still bounds what it spends.
      this.logger.warn(
        `Rate limit not applied, storage unavailable: ${error instanceof Error ? error.message : String(error)}`,
      );
      return;
    }
    if (record.isBlocked) {
      throw new TooManyRequestsError(
        LOGO_RATE_LIMITED_MESSAGE,
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
