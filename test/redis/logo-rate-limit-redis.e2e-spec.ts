import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { DevImageApi, Replies } from '../../dev-servers/image-api';
import { createTestApp, TestApp } from '../support/test-app';
import { connectTestRedis, testRedisUrl } from '../support/test-redis';

/**
 * The logo rate limit counted in Redis (REDIS_URL), on the server
 * TEST_REDIS_URL names, under a key prefix of this run, removed afterwards.
 * The rest of the limit's rules: logo-rate-limit.e2e-spec.ts.
 */

const PATH = '/api/ai/generate-logo';
const KEY = 'sk-rate-limit-test';
const LIMITED = {
  success: false,
  error: 'Too many logo requests, retry later',
  code: 'rate_limited',
};

const valid = {
  projectId: 'any',
  companyName: 'Acme Rockets',
  style: 'modern',
  colors: ['#0044ff'],
};

describe('logo generation: per-client rate limit with REDIS_URL', () => {
  const REDIS_URL = testRedisUrl();
  const prefix = `workspace-api-test:${randomUUID()}:`;
  let api: DevImageApi;
  let redis: Redis;
  const apps: TestApp[] = [];

  const appWith = async (env: Record<string, string | undefined>) => {
    const app = await createTestApp({
      IMAGE_API_KEY: KEY,
      IMAGE_API_URL: api.url,
      ...env,
    });
    apps.push(app);
    return app;
  };
  const post = (t: TestApp) => request(t.server).post(PATH).send(valid);

  beforeAll(async () => {
    redis = await connectTestRedis(REDIS_URL);
    api = await DevImageApi.start({ defaultReply: Replies.success() });
  });
  beforeEach(() => api.reset());
  afterAll(async () => {
    for (const app of apps) await app.close();
    await api?.close();
    const keys = await redis.keys(`*${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('two instances share one count', async () => {
    const env = {
      LOGO_RATE_LIMIT: '3',
      REDIS_URL,
      REDIS_KEY_PREFIX: `${prefix}shared:`,
    };
    const a = await appWith(env);
    const b = await appWith(env);
    await post(a).expect(200);
    await post(b).expect(200);
    await post(a).expect(200);
    const refused = await post(b).expect(429);
    expect(refused.body).toEqual(LIMITED);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await post(a).expect(429);
    expect(await redis.keys(`*${prefix}shared:*`)).not.toHaveLength(0);
  });
});
