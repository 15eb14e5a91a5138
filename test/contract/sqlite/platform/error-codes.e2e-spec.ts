import request from 'supertest';
import { DevImageApi, Replies } from '../../../../dev-servers/image-api';
import { LogoQueue } from '../../../../src/logo/logo-queue';
import { listen, startPost, until } from '../../../support/pending-request';
import { createProject } from '../../../support/project-fixtures';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * The machine-readable `code` of error bodies (docs/api.md, "Error codes"):
 * one representative answer per code the contract's routes produce, with
 * the contract's own fields unchanged beside it.
 */

const LOGO = '/api/ai/generate-logo';
const KEY = 'sk-error-codes-test';
/** Longer than any test: a call with this latency only ends if cut. */
const HELD_MS = 60_000;
const UNKNOWN_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e99';

const logo = {
  projectId: 'any',
  companyName: 'Acme Rockets',
  style: 'modern',
  colors: ['#0044ff'],
};

describe('error codes', () => {
  let api: DevImageApi;
  let t: TestApp;
  let base: string;
  let queue: LogoQueue;
  /** Each logo test its own address, so no test spends another's budget. */
  let address = 0;
  const client = () => ({ 'X-Forwarded-For': `203.0.113.${++address}` });

  beforeAll(async () => {
    api = await DevImageApi.start({ defaultReply: Replies.success() });
    t = await createTestApp({
      IMAGE_API_KEY: KEY,
      IMAGE_API_URL: api.url,
      IMAGE_API_MAX_RETRIES: '2',
      IMAGE_API_RETRY_BASE_MS: '5',
      IMAGE_API_RETRY_MAX_MS: '10',
      IMAGE_API_CONCURRENCY: '1',
      IMAGE_API_QUEUE_LIMIT: '1',
      TRUST_PROXY: 'loopback',
      LOGO_RATE_LIMIT: '2',
    });
    queue = t.app.get(LogoQueue);
    base = await listen(t);
  });
  beforeEach(() => api.reset());
  afterEach(async () => {
    await api.waitUntil(() => api.openCalls === 0);
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });

  const postLogo = (headers = client()) =>
    request(t.server).post(LOGO).set(headers).send(logo);

  it('an unknown project is 404 project_not_found', async () => {
    const res = await request(t.server)
      .get(`/api/projects/${UNKNOWN_ID}`)
      .expect(404);
    expect(res.body).toEqual({
      error: 'Project not found',
      code: 'project_not_found',
    });
  });

  it('an unknown route is 404 not_found', async () => {
    const res = await request(t.server).get('/api/nothing-here').expect(404);
    expect(res.body).toEqual({ error: 'Not found', code: 'not_found' });
  });

  it('a broken rule is 400 invalid_input, details kept', async () => {
    const res = await request(t.server)
      .post('/api/projects')
      .send({ name: '' })
      .expect(400);
    expect(res.body).toEqual({
      error: 'Invalid input',
      details: expect.any(Array) as unknown,
      code: 'invalid_input',
    });
    const onLogo = await request(t.server)
      .post(LOGO)
      .send({ ...logo, style: 'baroque' })
      .expect(400);
    expect(onLogo.body).toMatchObject({
      success: false,
      error: 'Invalid input',
      code: 'invalid_input',
    });
  });

  it('a body that is not JSON keeps the contract status (500) and text, with invalid_json', async () => {
    const res = await request(t.server)
      .post('/api/projects')
      .set('Content-Type', 'application/json')
      .send('{"name": "P",')
      .expect(500);
    expect(res.body).toEqual({
      error: 'Failed to create project',
      code: 'invalid_json',
    });
  });

  it('a stale If-Match is 412 precondition_failed', async () => {
    const project = await createProject(t);
    const res = await request(t.server)
      .patch(`/api/projects/${project.id}`)
      .set('If-Match', '"stale"')
      .send({ name: 'Renamed' })
      .expect(412);
    expect(res.body).toEqual({
      error: 'Precondition failed',
      code: 'precondition_failed',
    });
  });

  it('a key reused with another body is 422 idempotency_key_reused', async () => {
    await request(t.server)
      .post('/api/projects')
      .set('Idempotency-Key', 'reused-key')
      .send({ name: 'First', userId: 'user-1' })
      .expect(201);
    const res = await request(t.server)
      .post('/api/projects')
      .set('Idempotency-Key', 'reused-key')
      .send({ name: 'Second', userId: 'user-1' })
      .expect(422);
    expect(res.body).toEqual({
      error: 'This Idempotency-Key was used with a different request body',
      code: 'idempotency_key_reused',
    });
  });

  it('over the logo rate limit is 429 rate_limited', async () => {
    const one = client();
    await postLogo(one).expect(200);
    await postLogo(one).expect(200);
    const res = await postLogo(one).expect(429);
    expect(res.body).toEqual({
      success: false,
      error: 'Too many logo requests, retry later',
      code: 'rate_limited',
    });
  });

  it('a key still in use is 409 idempotency_key_in_use; a full line is 503 busy', async () => {
    api.respondWith(Replies.slow(Replies.success(), HELD_MS));
    // A key belongs to its client: the retry comes from the same one.
    const holder = { 'Idempotency-Key': 'held', ...client() };
    const held = startPost(base, LOGO, logo, holder);
    await api.waitUntil(() => api.openCalls === 1);

    const inUse = await request(t.server)
      .post(LOGO)
      .set(holder)
      .send(logo)
      .expect(409);
    expect(inUse.body).toEqual({
      success: false,
      error: 'A request with this Idempotency-Key is still being processed',
      code: 'idempotency_key_in_use',
    });

    const waiting = startPost(base, LOGO, logo, client());
    await until(() => queue.waiting === 1, 'the second request to wait');
    const busy = await postLogo().expect(503);
    expect(busy.body).toEqual({
      success: false,
      error: 'Logo generator is busy, retry later',
      code: 'busy',
    });

    held.abort();
    waiting.abort();
    await until(() => queue.waiting === 0, 'the line to empty');
  });

  it("the provider's moderation refusal is moderation_blocked and is not retried", async () => {
    api.respondNext(Replies.moderationBlocked('Rejected by the safety system'));
    const res = await postLogo().expect(500);
    expect(res.body).toEqual({
      success: false,
      error: 'Rejected by the safety system',
      code: 'moderation_blocked',
    });
    expect(api.requests).toHaveLength(1);
  });

  it('an outage of the provider is upstream_failed, after its retries', async () => {
    api.respondWith(Replies.error(503, 'Overloaded'));
    const res = await postLogo().expect(500);
    expect(res.body).toEqual({
      success: false,
      error: 'Overloaded',
      code: 'upstream_failed',
    });
    expect(api.requests).toHaveLength(3);
  });

  it('another refusal is upstream_refused; an unknown model model_unavailable; neither retried', async () => {
    api.respondNext(Replies.error(400, 'Invalid size'));
    const refused = await postLogo().expect(500);
    expect(refused.body).toEqual({
      success: false,
      error: 'Invalid size',
      code: 'upstream_refused',
    });
    api.respondNext(Replies.error(404, 'The model does not exist'));
    const missing = await postLogo().expect(500);
    expect(missing.body).toEqual({
      success: false,
      error: 'The model does not exist',
      code: 'model_unavailable',
    });
    expect(api.requests).toHaveLength(2);
  });

  it('a provider that cannot be reached is upstream_unreachable', async () => {
    api.respondWith(Replies.resetConnection());
    const res = await postLogo().expect(500);
    expect(res.body).toEqual({
      success: false,
      error: 'The image service could not be reached',
      code: 'upstream_unreachable',
    });
  });
});
