import request from 'supertest';
import { DevImageApi, Replies } from '../../../../dev-servers/image-api';
import { findFreePort } from '../../../support/server-process';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * The per-client rate limit of POST /api/ai/generate-logo (docs/api.md, "Logo
 * generation in production"): LOGO_RATE_LIMIT requests per
 * LOGO_RATE_WINDOW_S per client IP, counting only requests that would call
 * the paid image API. Counted in a shared Redis:
 * logo-rate-limit-redis.e2e-spec.ts.
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

describe('logo generation: per-client rate limit', () => {
  let api: DevImageApi;
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
  const post = (t: TestApp, body: unknown = valid) =>
    request(t.server)
      .post(PATH)
      .send(body as object);

  beforeAll(async () => {
    api = await DevImageApi.start({ defaultReply: Replies.success() });
  });
  beforeEach(() => api.reset());
  afterAll(async () => {
    for (const app of apps) await app.close();
    await api?.close();
  });

  it('with the defaults (60 per 60 s) the 61st request in a window gets 429 {success:false, error:"Too many logo requests, retry later"} and Retry-After', async () => {
    const t = await appWith({
      LOGO_RATE_LIMIT: undefined,
      LOGO_RATE_WINDOW_S: undefined,
    });
    for (let batch = 0; batch < 6; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => post(t)),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    }
    const refused = await post(t).expect(429);
    expect(refused.body).toEqual(LIMITED);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // What costs money: 60 upstream calls, none for the refused request.
    expect(api.requests).toHaveLength(60);
  });

  it('never counts a request that fails validation', async () => {
    const t = await appWith({ LOGO_RATE_LIMIT: '2' });
    for (let i = 0; i < 5; i++) {
      await post(t, { ...valid, colors: [] }).expect(400);
    }
    await post(t).expect(200);
    await post(t).expect(200);
    await post(t).expect(429);
  });

  it('never counts a request made while no key is configured', async () => {
    const t = await appWith({ LOGO_RATE_LIMIT: '1', IMAGE_API_KEY: undefined });
    for (let i = 0; i < 3; i++) {
      const response = await post(t).expect(500);
      expect(response.body.error).toContain('IMAGE_API_KEY');
    }
    expect(api.requests).toHaveLength(0);
  });

  it('LOGO_RATE_LIMIT=0 turns the limit off', async () => {
    const t = await appWith({ LOGO_RATE_LIMIT: '0' });
    for (let batch = 0; batch < 7; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => post(t)),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    }
  });

  it('gives a new budget once the window has passed', async () => {
    const t = await appWith({ LOGO_RATE_LIMIT: '1', LOGO_RATE_WINDOW_S: '1' });
    await post(t).expect(200);
    const refused = await post(t).expect(429);
    expect(refused.headers['retry-after']).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 1300));
    await post(t).expect(200);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: one socket address, one budget', async () => {
    const t = await appWith({ LOGO_RATE_LIMIT: '1' });
    await post(t).set('X-Forwarded-For', '203.0.113.1').expect(200);
    await post(t).set('X-Forwarded-For', '203.0.113.2').expect(429);
  });

  it('with TRUST_PROXY, counts each X-Forwarded-For client on its own', async () => {
    const t = await appWith({ LOGO_RATE_LIMIT: '1', TRUST_PROXY: 'loopback' });
    await post(t).set('X-Forwarded-For', '203.0.113.1').expect(200);
    await post(t).set('X-Forwarded-For', '203.0.113.1').expect(429);
    await post(t).set('X-Forwarded-For', '203.0.113.2').expect(200);
  });

  it('without REDIS_URL, each instance counts on its own', async () => {
    const a = await appWith({ LOGO_RATE_LIMIT: '1' });
    const b = await appWith({ LOGO_RATE_LIMIT: '1' });
    await post(a).expect(200);
    await post(a).expect(429);
    await post(b).expect(200);
  });

  it('with a REDIS_URL nothing answers at, keeps serving with the limit counted in memory', async () => {
    const port = await findFreePort();
    const t = await appWith({
      LOGO_RATE_LIMIT: '1',
      REDIS_URL: `redis://127.0.0.1:${port}`,
    });
    await post(t).expect(200);
    await post(t).expect(429);
  });
});
