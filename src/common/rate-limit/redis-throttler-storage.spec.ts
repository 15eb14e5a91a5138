import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { ThrottlerStorageService } from '@nestjs/throttler';
import Redis from 'ioredis';
import {
  connectTestRedis,
  testRedisUrl,
} from '../../../test/support/test-redis';
import { RedisThrottlerStorage } from './redis-throttler-storage';

/**
 * Against the Redis server TEST_REDIS_URL names, under keys of this run only
 * (removed afterwards).
 */

const run = `redis-throttler-storage-test:${randomUUID()}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RedisThrottlerStorage', () => {
  const REDIS_URL = testRedisUrl();
  let client: Redis;
  let storage: RedisThrottlerStorage;
  let admin: Redis;
  let n = 0;
  /**
   * A key of its own for each use, with its hash tag as the client rate
   * limits write theirs.
   */
  const freshKey = () => `${run}:{k${++n}}`;

  beforeAll(async () => {
    admin = await connectTestRedis(REDIS_URL);
    client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    storage = new RedisThrottlerStorage(client);
  });

  afterAll(async () => {
    await storage.onApplicationShutdown();
    const keys = await admin.keys(`*${run}*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  it('counts hits within the ttl and answers the window in whole seconds', async () => {
    const key = freshKey();
    const first = await storage.increment(key, 5000, 10, 5000, 'default');
    expect(first).toEqual({
      totalHits: 1,
      timeToExpire: 5,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    await storage.increment(key, 5000, 10, 5000, 'default');
    const third = await storage.increment(key, 5000, 10, 5000, 'default');
    expect(third.totalHits).toBe(3);
    expect(third.isBlocked).toBe(false);
    expect(third.timeToExpire).toBeGreaterThanOrEqual(4);
    expect(third.timeToExpire).toBeLessThanOrEqual(5);
  });

  it('counts from 1 again once the ttl has passed', async () => {
    const key = freshKey();
    await storage.increment(key, 200, 5, 200, 'default');
    expect(
      (await storage.increment(key, 200, 5, 200, 'default')).totalHits,
    ).toBe(2);
    await sleep(400);
    const after = await storage.increment(key, 200, 5, 200, 'default');
    expect(after.totalHits).toBe(1);
    expect(after.isBlocked).toBe(false);
  });

  it('blocks past the limit for the block duration, without counting blocked hits, then starts afresh', async () => {
    const key = freshKey();
    expect((await storage.increment(key, 5000, 2, 3000, 'b')).isBlocked).toBe(
      false,
    );
    expect((await storage.increment(key, 5000, 2, 3000, 'b')).isBlocked).toBe(
      false,
    );
    const over = await storage.increment(key, 5000, 2, 3000, 'b');
    expect(over).toMatchObject({
      totalHits: 3,
      isBlocked: true,
      timeToBlockExpire: 3,
    });
    const again = await storage.increment(key, 5000, 2, 3000, 'b');
    expect(again.isBlocked).toBe(true);
    expect(again.totalHits).toBe(3);
    expect(again.timeToBlockExpire).toBeGreaterThanOrEqual(1);
    expect(again.timeToBlockExpire).toBeLessThanOrEqual(3);

    const short = freshKey();
    await storage.increment(short, 5000, 1, 300, 'b');
    expect((await storage.increment(short, 5000, 1, 300, 'b')).isBlocked).toBe(
      true,
    );
    await sleep(500);
    // The block is over: the hits made before it no longer count.
    expect(await storage.increment(short, 5000, 1, 300, 'b')).toMatchObject({
      totalHits: 1,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  });

  it('without a block duration refuses (as limit + 1) until the oldest hit expires', async () => {
    const key = freshKey();
    await storage.increment(key, 3000, 2, 0, 'nb');
    await storage.increment(key, 3000, 2, 0, 'nb');
    const refused = await storage.increment(key, 3000, 2, 0, 'nb');
    expect(refused).toMatchObject({
      totalHits: 3,
      isBlocked: true,
      timeToBlockExpire: 3,
    });
    // Refused hits are not counted.
    expect((await storage.increment(key, 3000, 2, 0, 'nb')).totalHits).toBe(3);
  });

  it('keeps separate counts per throttler name and per key', async () => {
    const key = freshKey();
    const other = freshKey();
    for (let i = 0; i < 3; i++) await storage.increment(key, 5000, 10, 0, 'a');
    expect((await storage.increment(key, 5000, 10, 0, 'b')).totalHits).toBe(1);
    expect((await storage.increment(other, 5000, 10, 0, 'a')).totalHits).toBe(
      1,
    );
    expect((await storage.increment(key, 5000, 10, 0, 'a')).totalHits).toBe(4);
  });

  it('counts 50 hits made at once exactly, and blocks exactly past the limit', async () => {
    const key = freshKey();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        storage.increment(key, 10000, 100, 10000, 'c'),
      ),
    );
    expect(answers.map((a) => a.totalHits).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    expect(
      (await storage.increment(key, 10000, 100, 10000, 'c')).totalHits,
    ).toBe(51);

    const limited = freshKey();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        storage.increment(limited, 10000, 10, 10000, 'c'),
      ),
    );
    expect(results.filter((r) => !r.isBlocked)).toHaveLength(10);
    expect(Math.max(...results.map((r) => r.totalHits))).toBe(11);
  });

  it('writes keys that start with the given key, and lets them all expire', async () => {
    const key = freshKey();
    await storage.increment(key, 200, 1, 300, 'e');
    await storage.increment(key, 200, 1, 300, 'e');
    const written = await admin.keys(`${key}*`);
    expect(written.sort()).toEqual([`${key}:e:hits`, `${key}:e:state`]);
    for (const k of written) expect(await admin.pttl(k)).toBeGreaterThan(0);
    await sleep(600);
    expect(await admin.keys(`${key}*`)).toEqual([]);
  });

  it('puts a key without a hash tag inside one, for both keys it writes', async () => {
    const key = `${run}:untagged${++n}`;
    await storage.increment(key, 5000, 5, 5000, 'u');
    const written = await admin.keys(`*${key}*`);
    expect(written.sort()).toEqual([`{${key}}:u:hits`, `{${key}}:u:state`]);
  });

  describe('answers as the in-memory ThrottlerStorageService does', () => {
    let memory: ThrottlerStorageService;

    beforeEach(() => {
      memory = new ThrottlerStorageService();
    });
    afterEach(() => {
      memory.onApplicationShutdown();
    });

    /**
     * Runs the same hits on both stores, waiting `waitBefore` ms before a
     * step. The in-memory store reports a meaningless timeToBlockExpire
     * when not blocked (a negative time since 1970); a client only ever
     * sees it while blocked (Retry-After), so it is compared only then.
     */
    const compare = async (
      ttl: number,
      limit: number,
      blockDuration: number,
      steps: { waitBefore: number; hits: number }[],
    ) => {
      const key = freshKey();
      const seen = { redis: [] as unknown[], memory: [] as unknown[] };
      const shown = (r: Awaited<ReturnType<typeof storage.increment>>) => ({
        totalHits: r.totalHits,
        timeToExpire: r.timeToExpire,
        isBlocked: r.isBlocked,
        ...(r.isBlocked ? { timeToBlockExpire: r.timeToBlockExpire } : {}),
      });
      for (const { waitBefore, hits } of steps) {
        if (waitBefore > 0) await sleep(waitBefore);
        for (let i = 0; i < hits; i++) {
          seen.memory.push(
            shown(await memory.increment(key, ttl, limit, blockDuration, 't')),
          );
          seen.redis.push(
            shown(await storage.increment(key, ttl, limit, blockDuration, 't')),
          );
        }
      }
      expect(seen.redis).toEqual(seen.memory);
      return seen.redis;
    };

    it('with a block: over the limit, during the block and after it', async () => {
      const seen = await compare(600, 2, 900, [
        { waitBefore: 0, hits: 4 },
        { waitBefore: 1200, hits: 3 },
      ]);
      expect(seen).toHaveLength(7);
      expect(seen).toContainEqual(expect.objectContaining({ isBlocked: true }));
    });

    it('with a block shorter than the ttl: the hits before the block are forgotten after it', async () => {
      await compare(3000, 1, 300, [
        { waitBefore: 0, hits: 3 },
        { waitBefore: 600, hits: 2 },
      ]);
    });

    it('without a block: each hit stops counting ttl after it was made', async () => {
      // A count that restarted with a fixed window would say 1 at the last
      // step; the sliding count says 2 (the hit at ~700 ms still counts).
      const seen = await compare(1500, 2, 0, [
        { waitBefore: 0, hits: 1 },
        { waitBefore: 700, hits: 2 },
        { waitBefore: 1100, hits: 1 },
      ]);
      expect(seen[seen.length - 1]).toMatchObject({
        totalHits: 2,
        isBlocked: false,
      });
    });

    it('with a window of several seconds: the same time to expire', async () => {
      await compare(4000, 3, 4000, [{ waitBefore: 0, hits: 5 }]);
    });
  });

  describe('shutdown', () => {
    it('closes the client it was given', async () => {
      const own = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      const ended = new Promise((resolve) => own.once('end', resolve));
      const closing = new RedisThrottlerStorage(own);
      await closing.increment(freshKey(), 1000, 1, 1000, 's');
      await closing.onApplicationShutdown();
      await ended;
      expect(own.status).toBe('end');
    });

    it('fails a hit when Redis cannot be reached, and stops reconnecting on shutdown', async () => {
      const port = await freePort();
      const own = new Redis(`redis://127.0.0.1:${port}`, {
        maxRetriesPerRequest: 1,
        connectTimeout: 500,
        // As the app's client: the timer ioredis arms on disconnect of a
        // socket that is already gone would only delay the exit.
        disconnectTimeout: 500,
      });
      own.on('error', () => undefined);
      const unreachable = new RedisThrottlerStorage(own);
      await expect(
        unreachable.increment(freshKey(), 1000, 1, 1000, 's'),
      ).rejects.toThrow();
      await unreachable.onApplicationShutdown();
      let attempts = 0;
      own.on('connecting', () => attempts++);
      // Left alone, ioredis would try again within a few hundred ms
      // (50 ms more per attempt).
      await sleep(800);
      expect(attempts).toBe(0);
    });
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
