import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * The per-client rate limit of POST /api/projects: PROJECT_CREATE_RATE_LIMIT
 * creates per PROJECT_CREATE_RATE_WINDOW_S per client IP, off by default.
 * Counted in a shared Redis:
 * projects-create-rate-limit-redis.e2e-spec.ts.
 */

const PATH = '/api/projects';
const LIMITED = {
  error: 'Too many requests, retry later',
  code: 'rate_limited',
};
const valid = { name: 'P', userId: 'u' };

describe('project creation: per-client rate limit', () => {
  const apps: TestApp[] = [];

  const appWith = async (env: Record<string, string | undefined>) => {
    const app = await createTestApp(env);
    apps.push(app);
    return app;
  };
  const post = (t: TestApp, body: unknown = valid) =>
    request(t.server)
      .post(PATH)
      .send(body as object);
  const projectCount = async (t: TestApp) => {
    const [{ count }] = await t.dataSource.query(
      'SELECT COUNT(*) AS count FROM projects',
    );
    return Number(count);
  };

  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('is off by default: 30 creates in a row all get 201', async () => {
    const t = await appWith({
      PROJECT_CREATE_RATE_LIMIT: undefined,
      PROJECT_CREATE_RATE_WINDOW_S: undefined,
    });
    for (let i = 0; i < 30; i++) await post(t).expect(201);
    expect(await projectCount(t)).toBe(30);
  });

  it('past PROJECT_CREATE_RATE_LIMIT answers 429 {error:"Too many requests, retry later"} with Retry-After, and stores nothing', async () => {
    const t = await appWith({ PROJECT_CREATE_RATE_LIMIT: '3' });
    for (let i = 0; i < 3; i++) await post(t).expect(201);
    const refused = await post(t).expect(429);
    expect(refused.body).toEqual(LIMITED);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await projectCount(t)).toBe(3);
  });

  it('never counts a replay of an Idempotency-Key that already created its project', async () => {
    const t = await appWith({ PROJECT_CREATE_RATE_LIMIT: '2' });
    const key = randomUUID();
    const first = await post(t).set('Idempotency-Key', key).expect(201);
    for (let i = 0; i < 5; i++) {
      const replay = await post(t).set('Idempotency-Key', key).expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
    }
    // The one create left in the budget is still there.
    await post(t).expect(201);
    await post(t).expect(429);
    expect(await projectCount(t)).toBe(2);
  });

  it('never counts a request that fails validation', async () => {
    const t = await appWith({ PROJECT_CREATE_RATE_LIMIT: '2' });
    for (let i = 0; i < 5; i++) await post(t, { name: '' }).expect(400);
    await post(t).expect(201);
    await post(t).expect(201);
    await post(t).expect(429);
  });

  it('gives a new budget once the window has passed', async () => {
    const t = await appWith({
      PROJECT_CREATE_RATE_LIMIT: '1',
      PROJECT_CREATE_RATE_WINDOW_S: '1',
    });
    await post(t).expect(201);
    const refused = await post(t).expect(429);
    expect(refused.headers['retry-after']).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 1300));
    await post(t).expect(201);
  });

  it('with TRUST_PROXY, counts each X-Forwarded-For client on its own', async () => {
    const t = await appWith({
      PROJECT_CREATE_RATE_LIMIT: '1',
      TRUST_PROXY: 'loopback',
    });
    await post(t).set('X-Forwarded-For', '203.0.113.1').expect(201);
    await post(t).set('X-Forwarded-For', '203.0.113.1').expect(429);
    await post(t).set('X-Forwarded-For', '203.0.113.2').expect(201);
  });
});
