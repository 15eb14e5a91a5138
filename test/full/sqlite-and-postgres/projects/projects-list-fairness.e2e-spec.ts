import { statSync } from 'node:fs';
import { exportJWK, generateKeyPair } from 'jose';
import { seededUserId } from '../../../../bench/seed-rows';
import { DevAuthProviderProcess } from '../../../support/dev-auth-provider-process';
import request from 'supertest';
import { waitForNoListSnapshots } from '../../../support/list-snapshots';
import { listen } from '../../../support/pending-request';
import { openList } from '../../../support/project-list-client';
import { seedProjects } from '../../../support/seed-projects';
import { createTestApp, type TestApp } from '../../../support/test-app';
import { TEST_DATABASE } from '../../../support/test-database';

/**
 * Full (streamed) lists are shared fairly: a cap per client, a longest
 * duration however the client reads, an immediate 503 when no list
 * connection is free, and (SQLite) a WAL that shrinks back once no list
 * reads it. These run on SQLite and on PostgreSQL.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('full lists: per-client cap (LIST_CLIENT_LIMIT)', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({
      LIST_CLIENT_LIMIT: '1',
      TRUST_PROXY: 'loopback',
      DATABASE_LIST_POOL_SIZE: '5',
    });
    base = await listen(t);
    await seedProjects(t.databaseUrl, 10_000, 10);
  });
  afterAll(() => t.close());

  it('serves a list beyond the share of its client once an earlier list of that client ends within the wait', async () => {
    const me = { 'X-Forwarded-For': '203.0.113.9' };
    // Not read: it holds the client's one slot until dropped.
    const held = await openList(`${base}/api/projects`, me);
    expect(held.statusCode).toBe(200);
    const waiting = request(t.server)
      .get('/api/projects?userId=few')
      .set(me)
      .then((answer) => answer.status);
    setTimeout(() => held.destroy(), 300);
    expect(await waiting).toBe(200);
  });

  it('a client whose LIST_CLIENT_LIMIT full lists do not end within the wait gets 429 with Retry-After; pages and other clients are served; the slot comes back when the list ends', async () => {
    const me = { 'X-Forwarded-For': '203.0.113.1' };
    // Not read: it holds its slot (and its snapshot) until dropped.
    const held = await openList(`${base}/api/projects`, me);
    expect(held.statusCode).toBe(200);

    const refused = await request(t.server)
      .get('/api/projects')
      .set(me)
      .expect(429);
    expect(refused.body).toEqual({
      error: 'Too many lists in progress for this client, retry later',
      code: expect.any(String),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    await request(t.server).get('/api/projects?limit=5').set(me).expect(200);
    const other = await openList(`${base}/api/projects`, {
      'X-Forwarded-For': '203.0.113.2',
    });
    expect(other.statusCode).toBe(200);
    other.destroy();

    held.destroy();
    expect(await waitForNoListSnapshots(t.databaseUrl, 10_000)).toBe(0);
    const again = await openList(`${base}/api/projects`, me);
    expect(again.statusCode).toBe(200);
    again.destroy();
    await waitForNoListSnapshots(t.databaseUrl, 10_000);
  });
});

describe('full lists: longest duration (LIST_MAX_DURATION_MS)', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({
      LIST_MAX_DURATION_MS: '1500',
      LIST_IDLE_TIMEOUT_MS: '60000',
    });
    base = await listen(t);
    await seedProjects(t.databaseUrl, 10_000, 10);
  });
  afterAll(() => t.close());

  it('cuts off a list whose client keeps reading a little now and then, releases its snapshot and counts it as too_long', async () => {
    const response = await openList(`${base}/api/projects`);
    // Reads 64 KB, then waits 400 ms, again and again: never idle for long,
    // yet the whole list would take minutes.
    let sincePause = 0;
    response.on('data', (piece: string) => {
      sincePause += Buffer.byteLength(piece);
      if (sincePause >= 64 * 1024) {
        sincePause = 0;
        response.pause();
        setTimeout(() => response.resume(), 400);
      }
    });
    response.on('error', () => undefined);
    response.resume();
    // The server lets go of the snapshot at 1.5 s (the client, reading
    // slowly, reaches the cut later: the socket buffers hold megabytes).
    expect(await waitForNoListSnapshots(t.databaseUrl, 10_000)).toBe(0);
    const { text } = await request(t.server).get('/metrics').expect(200);
    expect(text).toMatch(
      /http_response_streams_cut_off_total\{route="\/api\/projects",reason="too_long"\} 1/,
    );
    response.destroy();
  });
});

// Each database has its own way of running out: connections, or the WAL.
if (TEST_DATABASE === 'postgres') {
  describe('full lists: no free list connection (PostgreSQL)', () => {
    let t: TestApp;
    let base: string;

    beforeAll(async () => {
      t = await createTestApp({
        DATABASE_LIST_POOL_SIZE: '1',
        DATABASE_CONNECT_TIMEOUT_MS: '5000',
      });
      base = await listen(t);
      await seedProjects(t.databaseUrl, 10_000, 10);
    });
    afterAll(() => t.close());

    it('serves a list that waits a moment for the connection another list gives back', async () => {
      // Not read: it holds the one list connection until dropped.
      const held = await openList(`${base}/api/projects`, {});
      expect(held.statusCode).toBe(200);
      const waiting = request(t.server)
        .get('/api/projects?userId=none')
        .then((answer) => answer.status);
      setTimeout(() => held.destroy(), 300);
      expect(await waiting).toBe(200);
    });

    it("answers 503 with Retry-After after a short wait for a connection, instead of the pool's wait ending in 500", async () => {
      const held = await openList(`${base}/api/projects`, {
        'X-Forwarded-For': 'ignored',
      });
      expect(held.statusCode).toBe(200);
      const refused = await request(t.server).get('/api/projects').expect(503);
      // Within the pool's own wait (DATABASE_CONNECT_TIMEOUT_MS, 5 s), by
      // the service's own clock (its request-duration histogram).
      const { text } = await request(t.server).get('/metrics').expect(200);
      expect(text).toContain(
        'http_request_duration_seconds_bucket{le="5",method="GET",route="/api/projects",status_code="503"} 1\n',
      );
      expect(refused.body).toEqual({
        error: 'Too many lists in progress, retry later',
        code: expect.any(String),
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      held.destroy();
      expect(await waitForNoListSnapshots(t.databaseUrl, 10_000)).toBe(0);
      await request(t.server).get('/api/projects?userId=none').expect(200);
    });
  });

  describe('full lists: the list connections shared between clients (PostgreSQL)', () => {
    let t: TestApp;
    let base: string;

    beforeAll(async () => {
      t = await createTestApp({
        DATABASE_LIST_POOL_SIZE: '5',
        TRUST_PROXY: 'loopback',
      });
      base = await listen(t);
      await seedProjects(t.databaseUrl, 10_000, 10);
    });
    afterAll(() => t.close());

    it("keeps a list connection for a new client: three clients holding two slow lists each take four of the five, and a fourth client's full list starts", async () => {
      // Addresses of different networks: a network's share is its own test.
      const from = (n: number) => ({ 'X-Forwarded-For': `203.0.${n}.1` });
      // Not read: each holds its connection (and snapshot) until dropped.
      const held = await Promise.all(
        [11, 11, 12, 12, 13, 13].map((n) =>
          openList(`${base}/api/projects`, from(n)),
        ),
      );
      const statuses = held.map((response) => response.statusCode);
      const newcomer = await openList(`${base}/api/projects`, from(14));
      process.stdout.write(
        `list connections: three clients x two lists ${JSON.stringify(statuses)}, fourth client ${newcomer.statusCode}\n`,
      );
      expect(newcomer.statusCode).toBe(200);
      // Each client's first list, one second one; the other two second
      // lists were refused after their wait, as when the pool is full.
      expect(statuses.filter((status) => status === 200)).toHaveLength(4);
      expect(statuses.filter((status) => status === 503)).toHaveLength(2);
      for (const response of [...held, newcomer]) response.destroy();
      expect(await waitForNoListSnapshots(t.databaseUrl, 10_000)).toBe(0);
    });
  });

  describe('full lists: the list connections shared between addresses under AUTH_MODE=oidc (PostgreSQL)', () => {
    let provider: DevAuthProviderProcess;
    let t: TestApp;
    let base: string;

    beforeAll(async () => {
      const { privateKey } = await generateKeyPair('RS256', {
        extractable: true,
      });
      provider = await DevAuthProviderProcess.start({
        ...(await exportJWK(privateKey)),
        kid: 'list-fairness',
        alg: 'RS256',
        use: 'sig',
      });
      t = await createTestApp({
        AUTH_MODE: 'oidc',
        AUTH_ISSUER: provider.issuer,
        AUTH_AUDIENCE: 'workspace-api',
        ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
        DATABASE_LIST_POOL_SIZE: '5',
        LIST_CLIENT_LIMIT: '2',
        TRUST_PROXY: 'loopback',
      });
      base = await listen(t);
      await seedProjects(t.databaseUrl, 20_000, 10);
    });
    afterAll(async () => {
      await t?.close();
      await provider?.stop();
    });

    it("keeps a list connection for another address: 5 accounts on 2 addresses holding two slow lists each take at most four of the five, and a sixth account's list from a third address starts", async () => {
      const accounts = [1, 2, 3, 4, 5];
      const tokens = await Promise.all(
        accounts.map((n) => provider.token(seededUserId(n))),
      );
      const headersOf = (index: number, address: string) => ({
        Authorization: `Bearer ${tokens[index]}`,
        'X-Forwarded-For': address,
      });
      // Not read: each holds its connection (and snapshot) until dropped.
      const held = await Promise.all(
        accounts.flatMap((_, index) => {
          const address = index < 3 ? '198.51.100.7' : '203.0.113.7';
          return [0, 1].map(() =>
            openList(`${base}/api/projects`, headersOf(index, address)),
          );
        }),
      );
      const statuses = held.map((response) => response.statusCode);
      const newcomer = await openList(`${base}/api/projects`, {
        Authorization: `Bearer ${await provider.token(seededUserId(6))}`,
        'X-Forwarded-For': '192.0.2.9',
      });
      process.stdout.write(
        `list connections: 5 accounts on 2 addresses ${JSON.stringify(statuses)}, third address ${newcomer.statusCode}\n`,
      );
      expect(
        statuses.filter((status) => status === 200).length,
      ).toBeLessThanOrEqual(4);
      expect(newcomer.statusCode).toBe(200);
      for (const response of [...held, newcomer]) response.destroy();
      expect(await waitForNoListSnapshots(t.databaseUrl, 10_000)).toBe(0);
    });

    it('holds a network (/24) to the share of one address: two neighbouring addresses hold two lists, and an address of another network still gets one', async () => {
      const tokens = await Promise.all(
        [1, 2, 3, 4].map((n) => provider.token(seededUserId(n))),
      );
      const held = await Promise.all(
        tokens.map((token, index) =>
          openList(`${base}/api/projects`, {
            Authorization: `Bearer ${token}`,
            'X-Forwarded-For': `198.51.100.${20 + (index % 2)}`,
          }),
        ),
      );
      const statuses = held.map((response) => response.statusCode);
      const elsewhere = await openList(`${base}/api/projects`, {
        Authorization: `Bearer ${await provider.token(seededUserId(7))}`,
        'X-Forwarded-For': '192.0.2.10',
      });
      expect(statuses.filter((status) => status === 200)).toHaveLength(2);
      expect(elsewhere.statusCode).toBe(200);
      for (const response of [...held, elsewhere]) response.destroy();
      expect(await waitForNoListSnapshots(t.databaseUrl, 10_000)).toBe(0);
    });
  });
} else {
  describe('full lists: the SQLite WAL after a long reader', () => {
    let t: TestApp;
    let base: string;

    beforeAll(async () => {
      t = await createTestApp();
      base = await listen(t);
      await seedProjects(t.databaseUrl, 10_000, 10);
    });
    afterAll(() => t.close());

    const walBytes = () => {
      try {
        return statSync(`${t.databaseUrl.slice('file:'.length)}-wal`).size;
      } catch {
        return 0;
      }
    };

    it('grows while a list holds its snapshot, and is truncated once the list lets go', async () => {
      const held = await openList(`${base}/api/projects`);
      for (let i = 0; i < 600; i++) {
        await request(t.server)
          .post('/api/projects')
          .send({ name: `p${i}`, description: 'd'.repeat(500), userId: 'w' })
          .expect(201);
      }
      const grown = walBytes();
      expect(grown).toBeGreaterThan(4 * 1024 * 1024);

      held.destroy();
      let now = walBytes();
      for (let i = 0; i < 100 && now >= grown; i++) {
        await sleep(50);
        now = walBytes();
      }
      expect(now).toBeLessThan(1024 * 1024);
    });
  });
}
