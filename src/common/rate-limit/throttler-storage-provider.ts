import { FactoryProvider, Logger } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import type { ConfigType } from '@nestjs/config';
import { redisConfig } from './redis.config';
import { MetricsService } from '../../metrics/metrics.service';
import { FallbackThrottlerStorage } from './fallback-throttler-storage';
import { RateLimitStorageMetrics } from './rate-limit-storage-metrics';
import { RedisThrottlerStorage } from './redis-throttler-storage';

/**
 * Where rate-limit counts live (@nestjs/throttler's storage interface): in
 * Redis when REDIS_URL is set, so every replica counts against one budget;
 * otherwise in this process's memory. While Redis does not answer within
 * REDIS_COMMAND_TIMEOUT_MS the counts go to memory instead
 * (FallbackThrottlerStorage). Both are closed with the app (their own
 * shutdown hooks: the Redis one closes the client made here).
 * The Redis client (ioredis) is loaded only when REDIS_URL is set.
 */
export const throttlerStorageProvider: FactoryProvider<ThrottlerStorage> = {
  provide: ThrottlerStorage,
  inject: [redisConfig.KEY, MetricsService],
  useFactory: (
    redis: ConfigType<typeof redisConfig>,
    metrics: MetricsService,
  ): ThrottlerStorage =>
    redis.url === undefined
      ? new ThrottlerStorageService()
      : new FallbackThrottlerStorage(
          redisStorage(redis.url, redis.commandTimeoutMs),
          new ThrottlerStorageService(),
          new RateLimitStorageMetrics(metrics),
          { commandTimeoutMs: redis.commandTimeoutMs },
        ),
};

function redisStorage(
  url: string,
  commandTimeoutMs: number,
): RedisThrottlerStorage {
  const { Redis } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('ioredis') as typeof import('ioredis');
  const client = new Redis(url, {
    // A call fails after one reconnection attempt instead of waiting for
    // Redis forever; the caller decides what a failure means.
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // ioredis arms this timer on disconnect even when the socket is already
    // gone (Redis down): it then only delays the process's exit.
    disconnectTimeout: 500,
    // A command nobody waits for any more (FallbackThrottlerStorage gave up
    // on it) is dropped, not kept queued while Redis is away.
    commandTimeout: commandTimeoutMs,
  });
  const logger = new Logger('RateLimitStorage');
  let down = false;
  // Without a listener ioredis prints every reconnection failure. One line
  // when Redis goes away and one when it is back is enough.
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn(`Redis is unavailable: ${error.message}`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.log('Redis is available again');
  });
  return new RedisThrottlerStorage(client);
}
