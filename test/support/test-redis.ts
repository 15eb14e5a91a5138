import Redis from 'ioredis';
import { REDIS_START_COMMAND } from './prerequisites';

/**
 * A connected client of the Redis the rate-limit tests use, or a failure
 * that says how to start one (instead of a timeout ten seconds later).
 */
export async function connectTestRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new Error(
      `These tests need Redis on ${url} (${REDIS_START_COMMAND}): ${String(error)}`,
      { cause: error },
    );
  }
  return redis;
}
