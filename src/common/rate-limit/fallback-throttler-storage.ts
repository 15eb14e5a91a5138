import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import type {
  ThrottlerStorage,
  ThrottlerStorageService,
} from '@nestjs/throttler';
import type { RateLimitStorageMetrics } from './rate-limit-storage-metrics';
import type { RedisThrottlerStorage } from './redis-throttler-storage';

/** What a storage answers (the package does not export the type by name). */
type ThrottlerStorageRecord = Awaited<
  ReturnType<ThrottlerStorage['increment']>
>;

/** While counting in memory, Redis is asked again at most this often. */
const PROBE_INTERVAL_MS = 1000;

export interface FallbackOptions {
  /** A Redis answer later than this counts as no answer. */
  commandTimeoutMs: number;
}

/**
 * The rate-limit counts in Redis, or in this process's memory while Redis
 * does not answer within `commandTimeoutMs`. A limit is still a limit while
 * Redis is down (counted per instance instead of shared), and no request
 * waits for an unavailable Redis for longer than the deadline: once one
 * check has missed it, every check goes to memory without asking Redis, and
 * a background PING (at most one a second, never awaited by a request) says
 * when Redis answers again. Both stores count with the same window rules
 * (RedisThrottlerStorage answers as ThrottlerStorageService does); the hits
 * counted in memory during an outage are not carried over to Redis.
 */
export class FallbackThrottlerStorage
  implements ThrottlerStorage, OnApplicationShutdown
{
  private readonly logger = new Logger('RateLimitStorage');
  private inMemory = false;
  private probing = false;
  private lastProbe = 0;

  constructor(
    private readonly redis: RedisThrottlerStorage,
    private readonly memory: ThrottlerStorageService,
    private readonly metrics: RateLimitStorageMetrics,
    private readonly options: FallbackOptions,
  ) {
    metrics.setFallback(false);
  }

  /** True while the counts are kept in memory. */
  get fallingBack(): boolean {
    return this.inMemory;
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    if (!this.inMemory) {
      try {
        return await withDeadline(
          this.redis.increment(key, ttl, limit, blockDuration, throttlerName),
          this.options.commandTimeoutMs,
        );
      } catch (error) {
        this.metrics.redisFailed();
        this.switchToMemory(error);
      }
    } else {
      this.probeRedis();
    }
    return this.memory.increment(key, ttl, limit, blockDuration, throttlerName);
  }

  async onApplicationShutdown(): Promise<void> {
    this.memory.onApplicationShutdown();
    await this.redis.onApplicationShutdown();
  }

  private switchToMemory(error: unknown): void {
    if (this.inMemory) return;
    this.inMemory = true;
    this.lastProbe = Date.now();
    this.metrics.switched('memory');
    this.logger.warn(
      `Rate limits counted in this instance's memory: Redis did not answer within ${this.options.commandTimeoutMs} ms (${error instanceof Error ? error.message : String(error)})`,
    );
  }

  private switchToRedis(): void {
    if (!this.inMemory) return;
    this.inMemory = false;
    this.metrics.switched('redis');
    this.logger.log('Rate limits counted in Redis again: Redis answers');
  }

  /** One PING at a time, at most one a second; its answer decides. */
  private probeRedis(): void {
    const now = Date.now();
    if (this.probing || now - this.lastProbe < PROBE_INTERVAL_MS) return;
    this.probing = true;
    this.lastProbe = now;
    withDeadline(this.redis.ping(), this.options.commandTimeoutMs)
      .then(
        () => this.switchToRedis(),
        // Still down: the next probe, a second from now, asks again.
        () => undefined,
      )
      .finally(() => {
        this.probing = false;
      });
  }
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    // Rejected on the turn after the timer: when the event loop was held up
    // past the deadline, an answer that arrived meanwhile is read first
    // (I/O callbacks run before setImmediate ones) and wins.
    timer = setTimeout(
      () => setImmediate(() => reject(new Error(`no answer within ${ms} ms`))),
      ms,
    );
  });
  // A late answer (or failure) of the abandoned call is of no interest.
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
