import request from 'supertest';
import { DevImageApi, Replies } from '../../../../dev-servers/image-api';
import { IdempotencyService } from '../../../../src/idempotency/idempotency.service';
import { listen, startPost } from '../../../support/pending-request';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * Idempotency-Key on POST /api/projects and POST /api/ai/generate-logo: a
 * retry gets the first answer again, byte for byte, and the work is never
 * done twice. Runs on SQLite and PostgreSQL.
 */

const PROJECTS = '/api/projects';
const LOGO = '/api/ai/generate-logo';
const project = { name: 'Retried', userId: 'idem-user' };
const logo = {
  projectId: 'p-1',
  companyName: 'Acme',
  style: 'modern',
  colors: ['#0044ff'],
};

const countRows = async (t: TestApp, table: string) => {
  const [row] = await t.dataSource.query<Array<{ n: number | string }>>(
    `SELECT COUNT(*) AS "n" FROM "${table}"`,
  );
  return Number(row.n);
};

describe('Idempotency-Key on POST /api/projects', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t);
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  it('without the header, two identical POSTs create two projects and neither is marked as a replay', async () => {
    const first = await request(t.server).post(PROJECTS).send(project);
    const second = await request(t.server).post(PROJECTS).send(project);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(await countRows(t, 'projects')).toBe(2);
  });

  it('a retry with the same key and body gets the first answer byte for byte, with Idempotent-Replayed: true, and creates nothing', async () => {
    const first = await request(t.server)
      .post(PROJECTS)
      .set('Idempotency-Key', 'create-1')
      .send(project)
      .expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await request(t.server)
      .post(PROJECTS)
      .set('Idempotency-Key', 'create-1')
      .send(project)
      .expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.text).toBe(first.text);
    expect(retry.headers['etag']).toBe(first.headers['etag']);
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(await countRows(t, 'projects')).toBe(1);
    expect(await countRows(t, 'sections')).toBe(8);
    expect(await countRows(t, 'agents')).toBe(3);
  });

  it('50 concurrent POSTs with one key create exactly one project; every answer is the original, its replay, or 409 with Retry-After', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${base}${PROJECTS}`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'Idempotency-Key': 'burst',
          },
          body: JSON.stringify(project),
        }).then(async (res) => ({
          status: res.status,
          replayed: res.headers.get('idempotent-replayed'),
          retryAfter: res.headers.get('retry-after'),
          text: await res.text(),
        })),
      ),
    );
    expect(await countRows(t, 'projects')).toBe(1);
    const originals = answers.filter((a) => a.status === 201 && !a.replayed);
    expect(originals).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 409) {
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      } else {
        expect(answer.status).toBe(201);
        expect(answer.text).toBe(originals[0].text);
      }
    }
    const settled = await request(t.server)
      .post(PROJECTS)
      .set('Idempotency-Key', 'burst')
      .send(project)
      .expect(201);
    expect(settled.headers['idempotent-replayed']).toBe('true');
    expect(settled.text).toBe(originals[0].text);
  });

  it('the same key with a different body is 422 {error} and creates nothing', async () => {
    await request(t.server)
      .post(PROJECTS)
      .set('Idempotency-Key', 'reused')
      .send(project)
      .expect(201);
    const res = await request(t.server)
      .post(PROJECTS)
      .set('Idempotency-Key', 'reused')
      .send({ ...project, name: 'Another' })
      .expect(422);
    expect(res.body).toEqual({
      error: 'This Idempotency-Key was used with a different request body',
      code: 'idempotency_key_reused',
    });
    expect(await countRows(t, 'projects')).toBe(1);
  });

  it('the body is compared byte for byte: the same JSON spaced differently is another body (422)', async () => {
    await request(t.server)
      .post(PROJECTS)
      .set('Idempotency-Key', 'spaced')
      .send(project)
      .expect(201);
    await request(t.server)
      .post(PROJECTS)
      .set('Idempotency-Key', 'spaced')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(project, null, 2))
      .expect(422);
    expect(await countRows(t, 'projects')).toBe(1);
  });

  it('a body nested past the depth limit with a key is still 400, and stores nothing', async () => {
    const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    await request(t.server)
      .post(PROJECTS)
      .set('Idempotency-Key', 'deep')
      .set('Content-Type', 'application/json')
      .send(deep)
      .expect(400);
    expect(await countRows(t, 'idempotency_keys')).toBe(0);
  });

  it('an invalid body (400) is not stored: the key can then be used with a valid one', async () => {
    await request(t.server)
      .post(PROJECTS)
      .set('Idempotency-Key', 'after-400')
      .send({ userId: 'idem-user' })
      .expect(400);
    const res = await request(t.server)
      .post(PROJECTS)
      .set('Idempotency-Key', 'after-400')
      .send(project)
      .expect(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['holding a tab', 'a\tb'],
  ])(
    'a key that is %s is 400 Invalid input naming the header, and creates nothing',
    async (_what, key) => {
      const res = await request(t.server)
        .post(PROJECTS)
        .set('Idempotency-Key', key)
        .send(project)
        .expect(400);
      expect(res.body).toEqual({
        error: 'Invalid input',
        details: [
          {
            path: ['Idempotency-Key'],
            message:
              'Idempotency-Key must be 1 to 255 printable ASCII characters',
            code: 'invalid_string',
          },
        ],
        code: 'invalid_input',
      });
      expect(await countRows(t, 'projects')).toBe(0);
    },
  );

  it('a key of exactly 255 printable characters is accepted', async () => {
    await request(t.server)
      .post(PROJECTS)
      .set('Idempotency-Key', `${'~'.repeat(127)} ${'!'.repeat(127)}`)
      .send(project)
      .expect(201);
  });

  it('a key sent twice is 400 and creates nothing', async () => {
    // Two header lines (supertest and fetch would join them into one).
    const answer = startPost(base, PROJECTS, project, {
      'Idempotency-Key': ['one', 'two'],
    });
    const { status, body } = await answer.response;
    expect(status).toBe(400);
    expect((body as { details: unknown[] }).details[0]).toMatchObject({
      path: ['Idempotency-Key'],
      message: 'Idempotency-Key must be sent once',
    });
    expect(await countRows(t, 'projects')).toBe(0);
  });

  it('keys are scoped to the route: the same key on the logo route is a different key', async () => {
    await request(t.server)
      .post(PROJECTS)
      .set('Idempotency-Key', 'shared-name')
      .send(project)
      .expect(201);
    // Not a 422 for "a different body": the logo route has its own keys
    // (without an image API key it fails with its documented 500).
    const res = await request(t.server)
      .post(LOGO)
      .set('Idempotency-Key', 'shared-name')
      .send(logo)
      .expect(500);
    expect(res.body.error).toMatch(/IMAGE_API_KEY/);
  });
});

describe('Idempotency-Key: caller scope and expiry', () => {
  it('keys are scoped to the caller: two clients using the same key each get their own project', async () => {
    const t = await createTestApp({ TRUST_PROXY: 'true' });
    try {
      for (const client of ['10.0.0.1', '10.0.0.2']) {
        const res = await request(t.server)
          .post(PROJECTS)
          .set('X-Forwarded-For', client)
          .set('Idempotency-Key', 'same-key')
          .send(project)
          .expect(201);
        expect(res.headers['idempotent-replayed']).toBeUndefined();
      }
      expect(await countRows(t, 'projects')).toBe(2);
    } finally {
      await t.close();
    }
  });

  it('after IDEMPOTENCY_TTL_S the key is processed again, and the purge deletes expired records', async () => {
    const t = await createTestApp({ IDEMPOTENCY_TTL_S: '1' });
    try {
      await request(t.server)
        .post(PROJECTS)
        .set('Idempotency-Key', 'short-lived')
        .send(project)
        .expect(201);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const again = await request(t.server)
        .post(PROJECTS)
        .set('Idempotency-Key', 'short-lived')
        .send(project)
        .expect(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(await countRows(t, 'projects')).toBe(2);

      expect(await countRows(t, 'idempotency_keys')).toBe(1);
      const purged = await t.app
        .get(IdempotencyService)
        .purge(Date.now() + 2000);
      expect(purged).toBe(1);
      expect(await countRows(t, 'idempotency_keys')).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('Idempotency-Key on POST /api/ai/generate-logo', () => {
  let api: DevImageApi;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    api = await DevImageApi.start({ defaultReply: Replies.success() });
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-idem',
      IMAGE_API_URL: api.url,
    });
    base = await listen(t);
  });
  beforeEach(async () => {
    api.reset();
    await t.reset();
  });
  afterAll(async () => {
    await t.close();
    await api.close();
  });

  it('a retry with the key replays the logo URL without a second upstream call', async () => {
    const first = await request(t.server)
      .post(LOGO)
      .set('Idempotency-Key', 'logo-1')
      .send(logo)
      .expect(200);
    const retry = await request(t.server)
      .post(LOGO)
      .set('Idempotency-Key', 'logo-1')
      .send(logo)
      .expect(200);
    expect(retry.text).toBe(first.text);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(api.requests).toHaveLength(1);
  });

  it('a failed generation is not stored: the retry calls the image API again', async () => {
    api.respondNext(Replies.error(400, 'Your prompt was rejected'));
    const failed = await request(t.server)
      .post(LOGO)
      .set('Idempotency-Key', 'logo-after-failure')
      .send(logo)
      .expect(500);
    expect(failed.body).toEqual({
      success: false,
      error: 'Your prompt was rejected',
      code: 'upstream_refused',
    });
    const retry = await request(t.server)
      .post(LOGO)
      .set('Idempotency-Key', 'logo-after-failure')
      .send(logo)
      .expect(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(api.requests).toHaveLength(2);
  });

  it('a retry while the first request is still being processed is 409 {success:false} with Retry-After, and calls nothing', async () => {
    api.respondWith(Replies.slow(Replies.success(), 60_000));
    const held = startPost(base, LOGO, logo, { 'Idempotency-Key': 'held' });
    await api.waitUntil(() => api.openCalls === 1);
    const res = await request(t.server)
      .post(LOGO)
      .set('Idempotency-Key', 'held')
      .send(logo)
      .expect(409);
    expect(res.body).toEqual({
      success: false,
      error: 'A request with this Idempotency-Key is still being processed',
      code: 'idempotency_key_in_use',
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(api.requests).toHaveLength(1);
    // The client gives up: the key is freed, and a retry is processed.
    held.abort();
    await api.waitUntil(() => api.openCalls === 0);
    api.respondWith(Replies.success());
    // The server frees the key just after the upstream call is cut.
    let status = 0;
    for (let attempt = 0; attempt < 40 && status !== 200; attempt++) {
      ({ status } = await request(t.server)
        .post(LOGO)
        .set('Idempotency-Key', 'held')
        .send(logo));
      if (status === 409) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
    expect(api.requests).toHaveLength(2);
  });

  it('the same key with a different body is 422 {success:false} and calls nothing', async () => {
    await request(t.server)
      .post(LOGO)
      .set('Idempotency-Key', 'logo-reused')
      .send(logo)
      .expect(200);
    const res = await request(t.server)
      .post(LOGO)
      .set('Idempotency-Key', 'logo-reused')
      .send({ ...logo, companyName: 'Other' })
      .expect(422);
    expect(res.body).toEqual({
      success: false,
      error: 'This Idempotency-Key was used with a different request body',
      code: 'idempotency_key_reused',
    });
    expect(api.requests).toHaveLength(1);
  });

  it('a malformed key is 400 {success:false, error:"Invalid input"} and calls nothing', async () => {
    const res = await request(t.server)
      .post(LOGO)
      .set('Idempotency-Key', 'x'.repeat(300))
      .send(logo)
      .expect(400);
    expect(res.body).toMatchObject({ success: false, error: 'Invalid input' });
    expect(api.requests).toHaveLength(0);
  });
});
