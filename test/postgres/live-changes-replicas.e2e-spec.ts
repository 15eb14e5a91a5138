import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { EventStreamClient } from '../support/event-stream-client';
import { ServerProcess, startServer } from '../support/server-process';
import { createPostgresDatabase, TestDatabase } from '../support/test-database';

/**
 * Live changes across two replicas (built server processes) on one
 * PostgreSQL database: a change committed through one reaches the other's
 * streams by NOTIFY (A reads its log only every minute otherwise), in
 * commit order, each once; and with its notifications lost, a replica
 * still delivers within its poll interval (B reads every 300 ms).
 */
describe('PostgreSQL: live changes across replicas', () => {
  let database: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  const open: EventStreamClient[] = [];
  const cwd = mkdtempSync(join(tmpdir(), 'workspace-live-replicas-'));

  const stream = async (server: ServerProcess, path: string, headers = {}) => {
    const client = await EventStreamClient.open(
      `${server.baseUrl}${path}`,
      headers,
    );
    open.push(client);
    return client;
  };

  /** The delivery lag histogram's count, and its count at or under 1 s. */
  const lag = async (server: ServerProcess) => {
    const { text } = await request(server.baseUrl).get('/metrics').expect(200);
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
    return {
      count: value(/^event_delivery_lag_seconds_count (\S+)$/m),
      underOneSecond: value(
        /^event_delivery_lag_seconds_bucket\{le="1"\} (\S+)$/m,
      ),
    };
  };

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const env = {
      DATABASE_URL: database.url,
      DATABASE_CONNECT_TIMEOUT_MS: '30000',
    };
    a = await startServer({ ...env, EVENTS_POLL_MS: '60000' }, { cwd });
    b = await startServer({ ...env, EVENTS_POLL_MS: '300' }, { cwd });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('delivers changes made through the other replica, by NOTIFY, within a second as the server measures it', async () => {
    const onA = await stream(a, '/api/events?userId=replica-user');
    const created = await request(b.baseUrl)
      .post('/api/projects')
      .send({ name: 'Shared', userId: 'replica-user' })
      .expect(201);
    const id = (created.body as { project: { id: string } }).project.id;
    await request(b.baseUrl)
      .patch(`/api/projects/${id}`)
      .send({ name: 'Patched through B' })
      .expect(200);
    await onA.waitForChanges(2);
    expect(onA.changes().map((event) => event.type)).toEqual([
      'project.created',
      'project.updated',
    ]);
    const measured = await lag(a);
    expect(measured.count).toBeGreaterThanOrEqual(2);
    expect(measured.underOneSecond).toBe(measured.count);
  });

  it('gives every replica the same events in the same order, each once, under concurrent writes through both', async () => {
    const onA = await stream(a, '/api/events?userId=burst');
    const onB = await stream(b, '/api/events?userId=burst');
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        request(i % 2 === 0 ? a.baseUrl : b.baseUrl)
          .post('/api/projects')
          .send({ name: `burst ${i}`, userId: 'burst' }),
      ),
    );
    expect(responses.filter((r) => r.status !== 201)).toEqual([]);
    await onA.waitForChanges(60);
    await onB.waitForChanges(60);
    const idsOf = (client: EventStreamClient) =>
      client.changes().map((event) => Number(event.id));
    expect(idsOf(onA)).toEqual(idsOf(onB));
    expect(idsOf(onA)).toEqual([...idsOf(onA)].sort((x, y) => x - y));
    expect(new Set(idsOf(onA)).size).toBe(60);
    // A replay of the whole log through either gives the same sequence.
    const replayed = await stream(b, '/api/events?userId=burst', {
      'Last-Event-ID': '0',
    });
    await replayed.waitForChanges(60);
    expect(idsOf(replayed)).toEqual(idsOf(onA));
  });

  it('keeps delivering after its LISTEN connection is ended (it listens again; its poll covers the gap)', async () => {
    const onB = await stream(b, '/api/events?userId=lost-notify');
    // End B's LISTEN connection: no notification reaches it any more.
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    try {
      const ended = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`,
      );
      expect(ended.rowCount).toBeGreaterThanOrEqual(1);
    } finally {
      await admin.end();
    }
    await request(a.baseUrl)
      .post('/api/projects')
      .send({ name: 'Unannounced', userId: 'lost-notify' })
      .expect(201);
    await onB.waitForChanges(1);
    expect(onB.changes()[0].type).toBe('project.created');
  });
});
