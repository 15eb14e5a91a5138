import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { createTestApp, TestApp } from '../support/test-app';
import { connectTestRedis, testRedisUrl } from '../support/test-redis';

/**
 * The project-creation rate limit counted in Redis (REDIS_URL), on the
 * server TEST_REDIS_URL names, under a key prefix of this run, removed
 * afterwards. The rest of the limit's rules:
 * projects-create-rate-limit.e2e-spec.ts.
 */

const PATH = '/api/projects';
const LIMITED = {
  error: 'Too many requests, retry later',
  code: 'rate_limited',
};
const valid = { name: 'P', userId: 'u' };

describe('project creation: per-client rate limit with REDIS_URL', () => {
  const REDIS_URL = testRedisUrl();
  const prefix = `workspace-api-test:${randomUUID()}:`;
  let redis: Redis;
  const apps: TestApp[] = [];

  const appWith = async (env: Record<string, string | undefined>) => {
    const app = await createTestApp(env);
    apps.push(app);
    return app;
  };
  const post = (t: TestApp) => request(t.server).post(PATH).send(valid);

  beforeAll(async () => {
    redis = await connectTestRedis(REDIS_URL);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    const keys = await redis.keys(`*${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('two instances share one count', async () => {
    const env = {
      PROJECT_CREATE_RATE_LIMIT: '3',
      REDIS_URL,
      REDIS_KEY_PREFIX: `${prefix}shared:`,
    };
    const a = await appWith(env);
    const b = await appWith(env);
    await post(a).expect(201);
    await post(b).expect(201);
    await post(a).expect(201);
    const refused = await post(b).expect(429);
    expect(refused.body).toEqual(LIMITED);
    await post(a).expect(429);
    expect(
      await redis.keys(`*${prefix}shared:project-create-rate:*`),
    ).not.toHaveLength(0);
  });
});
