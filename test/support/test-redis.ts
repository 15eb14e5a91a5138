import Redis from 'ioredis';
import { REDIS_START_COMMAND, TEST_REDIS_EXAMPLE } from './prerequisites';

/**
 * The Redis the Redis suites use: the one TEST_REDIS_URL names. Those
 * suites are in no tier that runs without it (`npm test` leaves them out
 * and says so); run alone without it, they fail here rather than guess.
 */
export function testRedisUrl(): string {
  const url = process.env.TEST_REDIS_URL?.trim();
  if (!url) {
    throw new Error(
      `These tests need a Redis server named by TEST_REDIS_URL (e.g. TEST_REDIS_URL=${TEST_REDIS_EXAMPLE}); it is not set`,
    );
  }
  return url;
}

/** TEST_REDIS_URL's host and port, for a proxy put in front of it. */
export function testRedisAddress(): { host: string; port: number } {
  const { hostname, port } = new URL(testRedisUrl());
  return { host: hostname, port: Number(port || 6379) };
}

/**
 * TEST_REDIS_URL reached through another port of 127.0.0.1 (a proxy, or
 * nothing at all): the same credentials and database number.
 */
export function testRedisUrlOnPort(port: number): string {
  const url = new URL(testRedisUrl());
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.toString();
}

/**
 * A connected client of the Redis the rate-limit tests use, or a failure
 * that says how to start one (instead of a timeout ten seconds later).
 */
export async function connectTestRedis(url = testRedisUrl()): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new Error(
      `These tests need Redis on ${new URL(url).host} (${REDIS_START_COMMAND}): ${String(error)}`,
      { cause: error },
    );
  }
  return redis;
}
