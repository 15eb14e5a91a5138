import { FactoryProvider, Logger } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { appConfig } from '../../../config/app.config';
import type { AppConfig } from '../../../config/environment';

/**
 * Where rate-limit counts live (@nestjs/throttler's storage interface): in
 * Redis when REDIS_URL is set, so every replica counts against one budget;
 * otherwise in this process's memory. Both are closed with the app (their
 * own shutdown hooks: the Redis one disconnects the client it created).
 * The Redis client (ioredis) is loaded only when REDIS_URL is set.
 */
export const throttlerStorageProvider: FactoryProvider<ThrottlerStorage> = {
  provide: ThrottlerStorage,
  inject: [appConfig.KEY],
  useFactory: (config: AppConfig): ThrottlerStorage =>
    config.redis.url === undefined
      ? new ThrottlerStorageService()
      : redisStorage(config.redis.url),
};

function redisStorage(url: string): ThrottlerStorage {
  const { ThrottlerStorageRedisService } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('@nest-lab/throttler-storage-redis') as typeof import('@nest-lab/throttler-storage-redis');
  const storage = new ThrottlerStorageRedisService(url, {
    // A call fails after one reconnection attempt instead of waiting for
    // Redis forever; the caller decides what a failure means.
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // ioredis arms this timer on disconnect even when the socket is already
    // gone (Redis down): it then only delays the process's exit.
    disconnectTimeout: 500,
  });
  const logger = new Logger('RateLimitStorage');
  let down = false;
  // Without a listener ioredis prints every reconnection failure. One line
  // when Redis goes away and one when it is back is enough.
  storage.redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn(`Redis is unavailable: ${error.message}`);
  });
  storage.redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger.log('Redis is available again');
  });
  return storage;
}
