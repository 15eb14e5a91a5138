import request from 'supertest';
import {
  DevImageApi,
  FAKE_IMAGE_URL,
  Replies,
} from '../../../../dev-servers/image-api';
import { LogoQueue } from '../../../../src/logo/logo-queue';
import { listen, startPost, until } from '../../../support/pending-request';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * Bounded concurrency, the queue and cancellation (docs/api.md, "Logo generation
 * in production"), against the dev image API. Ordering and counts are
 * asserted, not timings; upstream calls that must stay open are made very
 * slow (HELD_MS) and are ended by the test itself.
 */

const PATH = '/api/ai/generate-logo';
const KEY = 'sk-concurrency-test';
/** Longer than any test: a call with this latency only ends if cut. */
const HELD_MS = 60_000;

const valid = {
  projectId: 'any',
  companyName: 'Acme Rockets',
  style: 'modern',
  colors: ['#0044ff'],
};

describe('logo generation: bounded concurrency and cancellation', () => {
  let api: DevImageApi;
  const apps: TestApp[] = [];

  const appWith = async (env: Record<string, string>) => {
    const app = await createTestApp({
      IMAGE_API_KEY: KEY,
      IMAGE_API_URL: api.url,
      // Every request here comes from one address; the per-client cap has
      // its own test below.
      IMAGE_API_CLIENT_LIMIT: '1000',
      ...env,
    });
    apps.push(app);
    return {
      t: app,
      queue: app.app.get(LogoQueue),
      baseUrl: await listen(app),
    };
  };

  beforeAll(async () => {
    api = await DevImageApi.start({ defaultReply: Replies.success() });
  });
  beforeEach(() => api.reset());
  afterEach(async () => {
    // Every held call has been cut by its test; wait for the last closes.
    await api.waitUntil(() => api.openCalls === 0);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await api?.close();
  });

  it('20 concurrent requests with IMAGE_API_CONCURRENCY=4: never more than 4 upstream calls open at once, and all 20 succeed', async () => {
    const { t } = await appWith({
      IMAGE_API_CONCURRENCY: '4',
      TRUST_PROXY: 'loopback',
    });
    api.respondWith(Replies.slow(Replies.success(), 300));
    // Four clients: one client alone holds at most half the slots.
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        request(t.server)
          .post(PATH)
          .set('X-Forwarded-For', `203.0.113.${n % 4}`)
          .send(valid),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    for (const response of responses) {
      expect(response.body.logoUrl).toBe(FAKE_IMAGE_URL);
    }
    expect(api.requests).toHaveLength(20);
    expect(api.maxOpenCalls).toBeLessThanOrEqual(4);
    // ...and the 4 slots were used: the calls were not made one by one.
    expect(api.maxOpenCalls).toBe(4);
  });

  it('refuses at once with 503 {success:false, error:"Logo generator is busy, retry later"} and Retry-After when the queue is full', async () => {
    const { t, queue, baseUrl } = await appWith({
      IMAGE_API_CONCURRENCY: '1',
      IMAGE_API_QUEUE_LIMIT: '1',
      IMAGE_API_BUSY_RETRY_AFTER_S: '7',
    });
    api.respondWith(Replies.slow(Replies.success(), HELD_MS));
    const inFlight = startPost(baseUrl, PATH, valid);
    await api.waitUntil(() => api.openCalls === 1);
    const waiting = startPost(baseUrl, PATH, valid);
    await until(() => queue.waiting === 1, 'the second request to wait');

    const refused = await request(baseUrl).post(PATH).send(valid).expect(503);
    // At once by the service's own clock (its request-duration histogram):
    // no wait behind the held call.
    const { text } = await request(t.server).get('/metrics').expect(200);
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="2.5",method="POST",route="/api/ai/generate-logo",status_code="503"} 1\n',
    );
    expect(refused.body).toEqual({
      success: false,
      error: 'Logo generator is busy, retry later',
      code: 'busy',
    });
    expect(refused.headers['retry-after']).toBe('7');
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(api.requests).toHaveLength(1);

    inFlight.abort();
    waiting.abort();
  });

  it('one client holds at most IMAGE_API_CLIENT_LIMIT places (in flight or waiting): its next request is 429 with Retry-After, while another client still gets a place', async () => {
    const { queue, baseUrl } = await appWith({
      IMAGE_API_CONCURRENCY: '1',
      IMAGE_API_QUEUE_LIMIT: '10',
      IMAGE_API_CLIENT_LIMIT: '2',
      IMAGE_API_BUSY_RETRY_AFTER_S: '7',
      TRUST_PROXY: 'loopback',
      LOGO_RATE_LIMIT: '0',
    });
    const greedy = { 'X-Forwarded-For': '203.0.113.1' };
    const other = { 'X-Forwarded-For': '203.0.113.2' };
    api.respondWith(Replies.slow(Replies.success(), HELD_MS));
    const inFlight = startPost(baseUrl, PATH, valid, greedy);
    await api.waitUntil(() => api.openCalls === 1);
    const waiting = startPost(baseUrl, PATH, valid, greedy);
    await until(() => queue.waiting === 1, 'the second request to wait');

    const refused = await request(baseUrl)
      .post(PATH)
      .set(greedy)
      .send(valid)
      .expect(429);
    expect(refused.body).toEqual({
      success: false,
      error: 'Too many logo requests, retry later',
      code: 'rate_limited',
    });
    expect(refused.headers['retry-after']).toBe('7');

    const another = startPost(baseUrl, PATH, valid, other);
    await until(() => queue.waiting === 2, 'the other client to wait');
    inFlight.abort();
    waiting.abort();
    another.abort();
  });

  it('a client that disconnects during its upstream call: the call is aborted (the image service sees the close) and its slot is reused', async () => {
    const { queue, baseUrl } = await appWith({ IMAGE_API_CONCURRENCY: '1' });
    api.respondNext(Replies.slow(Replies.success(), HELD_MS));
    const leaving = startPost(baseUrl, PATH, valid);
    await api.waitUntil(() => api.openCalls === 1);
    const next = request(baseUrl).post(PATH).send(valid);
    const nextDone = next.then((response) => response);
    await until(() => queue.waiting === 1, 'the next request to wait');
    expect(api.requests).toHaveLength(1);

    leaving.abort();
    const response = await nextDone;
    expect(response.status).toBe(200);
    expect(response.body.logoUrl).toBe(FAKE_IMAGE_URL);
    expect(api.requests).toHaveLength(2);
    expect(api.requests[0].closedEarly).toBe(true);
    expect(api.requests[1].closedEarly).toBe(false);
    expect(queue.inFlight).toBe(0);
  });

  it('a client that disconnects while queued leaves the queue and never reaches the image service', async () => {
    const { queue, baseUrl } = await appWith({
      IMAGE_API_CONCURRENCY: '1',
      IMAGE_API_QUEUE_LIMIT: '1',
    });
    api.respondNext(Replies.slow(Replies.success(), HELD_MS));
    const inFlight = startPost(baseUrl, PATH, valid);
    await api.waitUntil(() => api.openCalls === 1);
    const leaving = startPost(baseUrl, PATH, { ...valid, companyName: 'Gone' });
    await until(() => queue.waiting === 1, 'the leaving request to wait');

    leaving.abort();
    await until(() => queue.waiting === 0, 'the queue to empty');
    // Its place is free again: the next request waits instead of a 503.
    const next = startPost(baseUrl, PATH, { ...valid, companyName: 'Next' });
    await until(() => queue.waiting === 1, 'the next request to wait');
    inFlight.abort();
    expect(await next.response).toMatchObject({ status: 200 });

    const companies = api.requests.map(
      (r) => (r.body as { prompt: string }).prompt.match(/named "(.*?)"/)?.[1],
    );
    expect(companies).toEqual(['Acme Rockets', 'Next']);
  });

  it('a request still queued when its deadline passes gets 500 with the timeout message and never reaches the image service', async () => {
    const { queue, baseUrl } = await appWith({
      IMAGE_API_CONCURRENCY: '1',
      IMAGE_API_DEADLINE_MS: '500',
    });
    // The only slot is taken for longer than the deadline (a request of
    // this app could not hold it that long: its own deadline would end it).
    const holder = queue.admit('holder');
    try {
      const response = await request(baseUrl).post(PATH).send(valid);
      expect(response.status).toBe(500);
      expect(response.body).toEqual({
        success: false,
        error: expect.stringMatching(/did not respond in time/i),
        code: 'upstream_timeout',
      });
      expect(queue.waiting).toBe(0);
      expect(api.requests).toHaveLength(0);
    } finally {
      holder.release();
    }
  });
});
