import request from 'supertest';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestApp, TestApp } from '../support/test-app';
import {
  createPostgresDatabase,
  postgresAdminUrl,
  TestDatabase,
} from '../support/test-database';

/** Generous: the settings below give up after 1-3 s; CI machines are busy. */
const ANSWER_WITHIN_MS = 8000;

/**
 * The app reaches PostgreSQL through a proxy the test can cut, so the
 * database "goes away" while the app keeps running.
 */
describe('PostgreSQL outage', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const admin = new URL(postgresAdminUrl());
    proxy = await TcpProxy.start({
      host: admin.hostname,
      port: Number(admin.port || 5432),
    });
    const proxied = new URL(database.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    t = await createTestApp({
      DATABASE_URL: proxied.toString(),
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
    });
  });
  afterEach(() => proxy.up());
  afterAll(async () => {
    await proxy.up();
    await t.close();
    await proxy.down();
    await database.drop();
  });

  const timed = async (send: () => Promise<request.Response>) => {
    const started = Date.now();
    const response = await send();
    return { response, ms: Date.now() - started };
  };

  it('with the database refusing connections, requests end quickly with their documented 500', async () => {
    const created = await request(t.server)
      .post('/api/projects')
      .send({ name: 'Before', userId: 'u' })
      .expect(201);
    await proxy.down();

    const cases: Array<[() => request.Test, string]> = [
      [
        () => request(t.server).get('/api/projects'),
        'Failed to fetch projects',
      ],
      [
        () => request(t.server).get(`/api/projects/${created.body.project.id}`),
        'Failed to fetch project',
      ],
      [
        () =>
          request(t.server)
            .post('/api/projects')
            .send({ name: 'During', userId: 'u' }),
        'Failed to create project',
      ],
      [
        () =>
          request(t.server)
            .patch(`/api/projects/${created.body.project.id}`)
            .send({ name: 'x' }),
        'Failed to update project',
      ],
      [
        () =>
          request(t.server).delete(`/api/projects/${created.body.project.id}`),
        'Failed to delete project',
      ],
    ];
    for (const [send, error] of cases) {
      const { response, ms } = await timed(send);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 500,
        body: { error, code: expect.any(String) },
      });
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    }
  });

  it('with the database host silent, requests give up within the connect timeout', async () => {
    await proxy.blackhole();
    const { response, ms } = await timed(() =>
      request(t.server).get('/api/projects'),
    );
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      error: 'Failed to fetch projects',
      code: expect.any(String),
    });
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
  });

  it('with the database hanging mid-connection, requests give up within the statement timeout', async () => {
    await request(t.server).get('/api/projects').expect(200);
    proxy.freeze();
    const { response, ms } = await timed(() =>
      request(t.server).get('/api/projects'),
    );
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      error: 'Failed to fetch projects',
      code: expect.any(String),
    });
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
  });

  it('recovers by itself once the database is back, without a restart', async () => {
    await proxy.down();
    await request(t.server).get('/api/projects').expect(500);
    await proxy.up();
    const created = await request(t.server)
      .post('/api/projects')
      .send({ name: 'After', userId: 'recovered' })
      .expect(201);
    const { body } = await request(t.server)
      .get('/api/projects?userId=recovered')
      .expect(200);
    expect(body.projects.map((p: { id: string }) => p.id)).toEqual([
      created.body.project.id,
    ]);
  });
});
