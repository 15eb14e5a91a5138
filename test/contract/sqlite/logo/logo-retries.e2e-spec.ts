import request from 'supertest';
import {
  DevImageApi,
  FAKE_IMAGE_URL,
  Replies,
} from '../../../../dev-servers/image-api';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * Retries and the deadline of logo generation (docs/api.md, "Logo generation in
 * production"), against the dev image API. Backoffs are set to a few
 * milliseconds so the suite stays fast; waits that must happen are checked
 * from below (at least this long), never tightly from above.
 */

const PATH = '/api/ai/generate-logo';
const KEY = 'sk-retries-test';
const TIMEOUT_MESSAGE = /did not respond in time/i;

const valid = {
  projectId: 'any',
  companyName: 'Acme Rockets',
  style: 'modern',
  colors: ['#0044ff'],
};

/** Time between the arrival of upstream call `i` and call `i + 1`. */
const gapAfter = (api: DevImageApi, i: number) =>
  api.requests[i + 1].receivedAt - api.requests[i].receivedAt;

describe('logo generation: retries (IMAGE_API_MAX_RETRIES)', () => {
  let api: DevImageApi;
  let t: TestApp;

  beforeAll(async () => {
    api = await DevImageApi.start({ defaultReply: Replies.success() });
    t = await createTestApp({
      IMAGE_API_KEY: KEY,
      IMAGE_API_URL: api.url,
      IMAGE_API_MAX_RETRIES: '2',
      IMAGE_API_RETRY_BASE_MS: '10',
      IMAGE_API_RETRY_MAX_MS: '50',
      IMAGE_API_RETRY_AFTER_CAP_MS: '1500',
      IMAGE_API_TIMEOUT_MS: '300',
    });
  });
  beforeEach(() => api.reset());
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });

  const post = () => request(t.server).post(PATH).send(valid);

  it('retries a 503 and a 500, then answers 200 with the URL of the call that succeeded', async () => {
    api.respondNext(
      Replies.error(503, 'Overloaded'),
      Replies.error(500, 'Internal error'),
    );
    const response = await post().expect(200);
    expect(response.body).toEqual({
      success: true,
      logoUrl: FAKE_IMAGE_URL,
      message: 'Logo generated successfully!',
      expiresAt: null,
    });
    expect(api.requests).toHaveLength(3);
  });

  it('retries a 429', async () => {
    api.respondNext(Replies.error(429, 'Rate limit reached'));
    await post().expect(200);
    expect(api.requests).toHaveLength(2);
  });

  it('retries a call that timed out (IMAGE_API_TIMEOUT_MS), and the timed-out call is cut', async () => {
    api.respondNext(Replies.slow(Replies.success('https://late.test/x'), 5000));
    const response = await post().expect(200);
    expect(response.body.logoUrl).toBe(FAKE_IMAGE_URL);
    expect(api.requests).toHaveLength(2);
    await api.waitUntil(() => api.requests[0].closedEarly);
  });

  it('retries after the connection was reset', async () => {
    api.respondNext(Replies.resetConnection());
    await post().expect(200);
    expect(api.requests).toHaveLength(2);
  });

  it('never retries a 400: 500 with its error.message after one call', async () => {
    api.respondWith(Replies.error(400, 'Your prompt was rejected'));
    const response = await post().expect(500);
    expect(response.body).toEqual({
      success: false,
      error: 'Your prompt was rejected',
      code: 'upstream_refused',
    });
    expect(api.requests).toHaveLength(1);
  });

  it.each([401, 403, 404, 408, 409, 422])(
    'never retries a %i',
    async (status) => {
      api.respondWith(Replies.error(status, `Refused with ${status}`));
      const response = await post().expect(500);
      expect(response.body.error).toBe(`Refused with ${status}`);
      expect(api.requests).toHaveLength(1);
    },
  );

  it('never retries a 2xx without an image URL', async () => {
    api.respondWith(Replies.withoutImage());
    const response = await post().expect(500);
    expect(response.body.error).toMatch(/^Invalid response/);
    expect(api.requests).toHaveLength(1);
  });

  it('stops after IMAGE_API_MAX_RETRIES retries and answers with the last upstream error.message', async () => {
    api.respondNext(
      Replies.error(500, 'first'),
      Replies.error(502, 'second'),
      Replies.error(503, 'third'),
    );
    const response = await post().expect(500);
    expect(response.body).toEqual({
      success: false,
      error: 'third',
      code: 'upstream_failed',
    });
    expect(api.requests).toHaveLength(3);
  });

  it("answers 'Failed to generate logo' when the last failure has no error.message", async () => {
    api.respondNext(
      Replies.error(500, 'first'),
      Replies.error(502, 'second'),
      Replies.errorWithoutMessage(503),
    );
    const response = await post().expect(500);
    expect(response.body).toEqual({
      success: false,
      error: 'Failed to generate logo',
      code: 'upstream_failed',
    });
  });

  it('waits the Retry-After (seconds) of a 429 before retrying', async () => {
    api.respondNext(Replies.withRetryAfter(Replies.error(429, 'Slow down'), 1));
    await post().expect(200);
    expect(api.requests).toHaveLength(2);
    // The backoff alone is at most 50 ms here.
    expect(gapAfter(api, 0)).toBeGreaterThanOrEqual(950);
  });

  it('waits a Retry-After given as an HTTP date', async () => {
    // Whole seconds: about 1 to 2 s after now, below the 1.5 s cap or at it.
    const at = new Date(Date.now() + 2000).toUTCString();
    api.respondNext(Replies.withRetryAfter(Replies.error(503, 'Later'), at));
    await post().expect(200);
    // Measured from the failed call's arrival, not from now, so a slow
    // machine cannot make the expected wait look longer than it was.
    const expected = Math.min(
      Date.parse(at) - api.requests[0].receivedAt,
      1500,
    );
    expect(gapAfter(api, 0)).toBeGreaterThanOrEqual(expected - 20);
  });

  it('caps a Retry-After longer than IMAGE_API_RETRY_AFTER_CAP_MS', async () => {
    api.respondNext(
      Replies.withRetryAfter(Replies.error(503, 'Back in an hour'), 3600),
    );
    const started = Date.now();
    await post().expect(200);
    expect(gapAfter(api, 0)).toBeGreaterThanOrEqual(1450);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('sends the same request on every retry', async () => {
    api.respondNext(Replies.error(500, 'x'), Replies.error(500, 'y'));
    await post().expect(200);
    const [first, ...rest] = api.requests;
    for (const retry of rest) {
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.authorization).toBe(`Bearer ${KEY}`);
    }
  });
});

describe('logo generation: the deadline (IMAGE_API_DEADLINE_MS)', () => {
  let api: DevImageApi;
  const apps: TestApp[] = [];
  const keys = new WeakMap<TestApp, string>();

  // Each app calls with a key of its own: a call an earlier test's app
  // still had on the wire when its answer went out (the deadline cut it)
  // may reach the dev API after the next test began, and is not counted.
  const appWith = async (env: Record<string, string>) => {
    const key = `${KEY}-deadline-${apps.length}`;
    const app = await createTestApp({
      IMAGE_API_KEY: key,
      IMAGE_API_URL: api.url,
      IMAGE_API_RETRY_BASE_MS: '10',
      IMAGE_API_RETRY_MAX_MS: '50',
      ...env,
    });
    apps.push(app);
    keys.set(app, key);
    return app;
  };
  const callsOf = (t: TestApp) =>
    api.requests.filter(
      (call) => call.headers.authorization === `Bearer ${keys.get(t)}`,
    );

  beforeAll(async () => {
    api = await DevImageApi.start({ defaultReply: Replies.success() });
  });
  beforeEach(() => api.reset());
  afterAll(async () => {
    for (const app of apps) await app.close();
    await api?.close();
  });

  it('answers 500 "did not respond in time" once the deadline passes, however many retries are left', async () => {
    const t = await appWith({
      IMAGE_API_DEADLINE_MS: '1000',
      IMAGE_API_TIMEOUT_MS: '300',
      IMAGE_API_MAX_RETRIES: '10',
    });
    api.respondWith(Replies.slow(Replies.success(), 20_000));
    const started = Date.now();
    const response = await request(t.server).post(PATH).send(valid).expect(500);
    expect(response.body).toEqual({
      success: false,
      error: expect.stringMatching(TIMEOUT_MESSAGE),
      code: 'upstream_timeout',
    });
    expect(Date.now() - started).toBeLessThan(5000);
    // Some retries happened, far fewer than the 11 calls allowed.
    expect(callsOf(t).length).toBeGreaterThanOrEqual(2);
    expect(callsOf(t).length).toBeLessThan(11);
  });

  it('cuts the running upstream call when the deadline passes, even if the call timeout is longer', async () => {
    const t = await appWith({
      IMAGE_API_DEADLINE_MS: '800',
      IMAGE_API_TIMEOUT_MS: '60000',
      IMAGE_API_MAX_RETRIES: '2',
    });
    api.respondWith(Replies.slow(Replies.success(), 20_000));
    const started = Date.now();
    const response = await request(t.server).post(PATH).send(valid).expect(500);
    expect(response.body.error).toMatch(TIMEOUT_MESSAGE);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(callsOf(t)).toHaveLength(1);
    await api.waitUntil(() => callsOf(t)[0].closedEarly);
  });

  it('does not start a retry that could not begin before the deadline: the upstream error is the answer', async () => {
    const t = await appWith({
      IMAGE_API_DEADLINE_MS: '1000',
      IMAGE_API_RETRY_AFTER_CAP_MS: '5000',
      IMAGE_API_MAX_RETRIES: '2',
    });
    api.respondNext(
      Replies.withRetryAfter(Replies.error(503, 'Busy upstream'), 3),
    );
    const response = await request(t.server).post(PATH).send(valid).expect(500);
    expect(response.body).toEqual({
      success: false,
      error: 'Busy upstream',
      code: 'upstream_failed',
    });
    expect(callsOf(t)).toHaveLength(1);
  });
});
