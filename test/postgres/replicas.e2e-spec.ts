import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ServerProcess, startServer } from '../support/server-process';
import { createPostgresDatabase, TestDatabase } from '../support/test-database';

/** Two replicas (built server processes) sharing one PostgreSQL database. */
describe('PostgreSQL: replicas share state', () => {
  let database: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  const cwd = mkdtempSync(join(tmpdir(), 'workspace-replicas-'));

  beforeAll(async () => {
    database = await createPostgresDatabase();
    // DATABASE_CONNECT_TIMEOUT_MS also bounds the wait for a free pooled
    // connection: 100 creates queued on a pool of 10 can wait longer than the
    // default 5 s on a busy CI machine. This suite checks shared state, not
    // overload, so it gives them time.
    const env = {
      DATABASE_URL: database.url,
      DATABASE_CONNECT_TIMEOUT_MS: '30000',
    };
    // One migrates first, so the two start as a rolling update would.
    a = await startServer(env, { cwd });
    b = await startServer(env, { cwd });
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('a project created through one replica is listed, fetched, patched and deleted through the other', async () => {
    const created = await request(a.baseUrl)
      .post('/api/projects')
      .send({ name: 'Shared', userId: 'replica-user' })
      .expect(201);
    const id: string = created.body.project.id;

    const listed = await request(b.baseUrl)
      .get('/api/projects?userId=replica-user')
      .expect(200);
    expect(listed.body.projects.map((p: { id: string }) => p.id)).toEqual([id]);

    await request(b.baseUrl).get(`/api/projects/${id}`).expect(200);
    await request(b.baseUrl)
      .patch(`/api/projects/${id}`)
      .send({ name: 'Patched through B' })
      .expect(200);
    const fetched = await request(a.baseUrl)
      .get(`/api/projects/${id}`)
      .expect(200);
    expect(fetched.body.project.name).toBe('Patched through B');

    await request(b.baseUrl).delete(`/api/projects/${id}`).expect(200);
    await request(a.baseUrl).get(`/api/projects/${id}`).expect(404);
    await request(a.baseUrl).delete(`/api/projects/${id}`).expect(500);
  });

  it('200 concurrent creates spread over both leave exactly 200 projects, each with 8 sections and 3 agents', async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        request(i % 2 === 0 ? a.baseUrl : b.baseUrl)
          .post('/api/projects')
          .send({ name: `burst ${i}`, userId: 'burst' }),
      ),
    );
    expect(responses.filter((r) => r.status !== 201)).toEqual([]);

    const { body } = await request(b.baseUrl)
      .get('/api/projects?userId=burst')
      .expect(200);
    expect(body.projects).toHaveLength(200);
    expect(new Set(body.projects.map((p: { id: string }) => p.id)).size).toBe(
      200,
    );
    for (const project of body.projects) {
      expect(project.sections).toHaveLength(8);
      expect(project.agents).toHaveLength(3);
    }
  });

  it('an Idempotency-Key used on one replica is honoured by the other: 20 concurrent POSTs spread over both create one project', async () => {
    const body = { name: 'Keyed across replicas', userId: 'keyed' };
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(i % 2 === 0 ? a.baseUrl : b.baseUrl)
          .post('/api/projects')
          .set('Idempotency-Key', 'across-replicas')
          .send(body),
      ),
    );
    const created = responses.filter(
      (r) => r.status === 201 && !r.headers['idempotent-replayed'],
    );
    expect(created).toHaveLength(1);
    for (const r of responses) {
      expect([201, 409]).toContain(r.status);
      if (r.status === 201) expect(r.text).toBe(created[0].text);
    }
    const replay = await request(b.baseUrl)
      .post('/api/projects')
      .set('Idempotency-Key', 'across-replicas')
      .send(body)
      .expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const { body: listed } = await request(a.baseUrl)
      .get('/api/projects?userId=keyed')
      .expect(200);
    expect(listed.projects).toHaveLength(1);
  });

  it('If-Match on one replica sees a change made through the other', async () => {
    const created = await request(a.baseUrl)
      .post('/api/projects')
      .send({ name: 'Tagged', userId: 'tagged' })
      .expect(201);
    const id: string = created.body.project.id;
    await request(b.baseUrl)
      .patch(`/api/projects/${id}`)
      .set('If-Match', created.headers.etag)
      .send({ name: 'Changed through B' })
      .expect(200);
    await request(a.baseUrl)
      .patch(`/api/projects/${id}`)
      .set('If-Match', created.headers.etag)
      .send({ name: 'Stale edit through A' })
      .expect(412);
  });
});
