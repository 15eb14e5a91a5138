import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import Redis from 'ioredis';
import request from 'supertest';
import { CapturingLogger } from '../support/capturing-logger';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestApp, TestApp } from '../support/test-app';
import {
  connectTestRedis,
  testRedisAddress,
  testRedisUrlOnPort,
} from '../support/test-redis';

/**
 * The rate limits while Redis is unavailable: a port nothing listens on, a
 * server that accepts and never answers (TcpProxy's blackhole, standing in
 * for a Redis host that hangs), and the Redis TEST_REDIS_URL names behind
 * the proxy to see the counts go back to Redis. How long requests waited is
 * read from the server's own counters, never timed from here.
 */

const LIMIT = 5;
const ATTEMPTS = 20;
const valid = { name: 'P', userId: 'u' };

describe('rate limits while Redis is unavailable', () => {
  const apps: TestApp[] = [];
  const prefix = `workspace-api-test:${randomUUID()}:`;
  let admin: Redis;

  beforeAll(async () => {
    admin = await connectTestRedis();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  const appOn = async (port: number, logger?: CapturingLogger) => {
    const app = await createTestApp(
      {
        PROJECT_CREATE_RATE_LIMIT: String(LIMIT),
        REDIS_URL: testRedisUrlOnPort(port),
        REDIS_KEY_PREFIX: `${prefix}${port}:`,
      },
      { logger },
    );
    apps.push(app);
    return app;
  };
  const creates = async (t: TestApp, count: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      statuses.push(
        (await request(t.server).post('/api/projects').send(valid)).status,
      );
    }
    return statuses;
  };
  const metric = async (t: TestApp, line: RegExp) => {
    const text = (await request(t.server).get('/metrics').expect(200)).text;
    const found = text.split('\n').find((l) => line.test(l));
    return found === undefined ? undefined : Number(found.split(' ').pop());
  };
  /** Creates the server timed, and those it answered within 1 s. */
  const allCreatesTimed = async (t: TestApp) => {
    const text = (await request(t.server).get('/metrics').expect(200)).text;
    const within = text
      .split('\n')
      .filter((l) =>
        /^http_request_duration_seconds_bucket\{le="1",method="POST",route="\/api\/projects"/.test(
          l,
        ),
      )
      .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
    const total = text
      .split('\n')
      .filter((l) =>
        /^http_request_duration_seconds_count\{method="POST",route="\/api\/projects"/.test(
          l,
        ),
      )
      .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
    return { within, total };
  };

  it.each([
    ['a port nothing listens on', 'closed'],
    ['a server that accepts connections and never answers', 'blackhole'],
  ])(
    'with %s, creates past the limit are still refused and only the first check waits for Redis',
    async (_label, kind) => {
      let port: number;
      let proxy: TcpProxy | undefined;
      if (kind === 'closed') {
        port = await freePort();
      } else {
        proxy = await TcpProxy.start(testRedisAddress());
        await proxy.blackhole();
        port = proxy.port;
      }
      const logger = new CapturingLogger();
      try {
        const t = await appOn(port, logger);
        const statuses = await creates(t, ATTEMPTS);
        expect(statuses.filter((s) => s === 201)).toHaveLength(LIMIT);
        expect(statuses.filter((s) => s === 429)).toHaveLength(
          ATTEMPTS - LIMIT,
        );
        expect(await metric(t, /^rate_limit_storage_fallback /)).toBe(1);
        // One request found Redis silent; every later one went straight to
        // memory without waiting.
        expect(await metric(t, /^rate_limit_redis_failures_total /)).toBe(1);
        expect(
          await metric(t, /^rate_limit_storage_switches_total\{to="memory"\}/),
        ).toBe(1);
        const timed = await allCreatesTimed(t);
        expect(timed.total).toBe(ATTEMPTS);
        expect(timed.within).toBe(ATTEMPTS);
        expect(
          logger.lines.filter((l) =>
            l.includes("Rate limits counted in this instance's memory"),
          ),
        ).toHaveLength(1);
      } finally {
        await proxy?.down();
      }
    },
  );

  it('goes back to Redis, with a log line and the gauge at 0, once Redis answers again', async () => {
    const proxy = await TcpProxy.start(testRedisAddress());
    const logger = new CapturingLogger();
    try {
      const t = await appOn(proxy.port, logger);
      expect(await creates(t, 1)).toEqual([201]);
      expect(await metric(t, /^rate_limit_storage_fallback /)).toBe(0);
      await proxy.blackhole();
      expect(await creates(t, 2)).toEqual([201, 201]);
      expect(await metric(t, /^rate_limit_storage_fallback /)).toBe(1);
      await proxy.up();
      // Each check made while in memory may start the background probe (at
      // most one a second); its PING sees Redis answer.
      const recovered = () =>
        logger.lines.some((l) =>
          l.includes('Rate limits counted in Redis again'),
        );
      for (let i = 0; i < 40 && !recovered(); i++) {
        await creates(t, 1);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(
        logger.lines.filter((l) =>
          l.includes('Rate limits counted in Redis again'),
        ),
      ).toHaveLength(1);
      expect(await metric(t, /^rate_limit_storage_fallback /)).toBe(0);
      expect(
        await metric(t, /^rate_limit_storage_switches_total\{to="redis"\}/),
      ).toBe(1);
    } finally {
      await proxy.down();
    }
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
