import Sqlite from 'better-sqlite3';
import { Client } from 'pg';
import { DevImageApi, Replies } from '../../support/fake-image-api';
import { HttpClient } from '../../support/http-client';
import {
  LOOP_MONITOR_NODE_ARGS,
  loopWindowStats,
  startLoopWindow,
} from '../../support/loop-monitor';
import { byScale, recordReliability } from '../../support/reliability';
import { startServer, type ServerProcess } from '../../support/server-process';
import {
  createTestDatabase,
  TEST_DATABASE,
  type TestDatabase,
} from '../../support/test-database';
import { hostedLogoPath, pngOf, requestLogo } from '../image-answers';

/** A hosted logo of 20 MB: about 27 MB of base64 in the upstream's answer. */
const IMAGE_BYTES = 20 * 1024 * 1024;
/**
 * Main-thread CPU time one GET of it may cost. Read in slices of 256 KB,
 * each a statement that loads its own part, it cost 240 ms on SQLite here
 * on a busy machine (a store that loads the whole value for every slice
 * cost 2.1 s); on PostgreSQL 750 ms, most of it the driver turning each
 * part's hex text back into bytes.
 */
const MAX_SERVE_CPU_MS = TEST_DATABASE === 'sqlite' ? 500 : 1500;
/**
 * The longest the service may hold its event loop serving or purging: 50 ms
 * in the long run, which has the machine to itself; 100 ms when the suite
 * shares the cores with others (a 50 ms hold was seen on PostgreSQL there,
 * the driver's hex decoding of a 256 KB part landing on a busy core).
 */
const MAX_LOOP_HOLD_MS = byScale(100, 50);
/** Logos the purge deletes in one run. */
const EXPIRED_LOGOS = 3;
/** The background purge's period (src/database/batched-purge.ts). */
const PURGE_INTERVAL_MS = 60_000;

/** How many hosted logos the database still holds (rows of stored_images). */
async function storedImageCount(database: TestDatabase): Promise<number> {
  const sql = 'SELECT COUNT(*) AS "count" FROM "stored_images"';
  if (TEST_DATABASE === 'sqlite') {
    const file = new Sqlite(database.url.slice('file:'.length), {
      readonly: true,
    });
    try {
      return Number((file.prepare(sql).get() as { count: number }).count);
    } finally {
      file.close();
    }
  }
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>(sql);
    return Number(result.rows[0].count);
  } finally {
    await client.end();
  }
}

/**
 * The cost of a large hosted logo (a GPT image model's answer, served under
 * /api/ai/logos): serving 20 MB must cost main-thread time that grows with
 * its size, not with its square, and the background purge of expired ones
 * must delete them in steps too small to be seen. Both measured inside the
 * built server.
 */
describe(`Cost of a 20 MB hosted logo on ${TEST_DATABASE} (reliability)`, () => {
  let upstream: DevImageApi;
  const image = pngOf(IMAGE_BYTES);

  beforeAll(async () => {
    upstream = await DevImageApi.start({
      defaultReply: Replies.base64(image),
    });
  });

  afterAll(async () => {
    await upstream?.close();
  });

  async function startWith(
    database: TestDatabase,
    env: Record<string, string> = {},
  ): Promise<ServerProcess> {
    return startServer(
      {
        DATABASE_URL: database.url,
        IMAGE_API_KEY: 'sk-reliability-hosted-size',
        IMAGE_API_URL: upstream.url,
        IMAGE_MODEL: 'gpt-image-2',
        IMAGE_MAX_BYTES: '20mb',
        LOGO_RATE_LIMIT: '0',
        LOG_LEVEL: 'warn',
        ...env,
      },
      { nodeArgs: LOOP_MONITOR_NODE_ARGS, ipc: true },
    );
  }

  const host = async (client: HttpClient): Promise<string> => {
    const answer = await requestLogo(client, 'Large');
    expect(answer.status).toBe(200);
    return hostedLogoPath(answer.text);
  };

  it('serves it with main-thread time linear in its size, never holding the loop over 50 ms', async () => {
    const database = await createTestDatabase();
    const server = await startWith(database);
    const client = new HttpClient(server.baseUrl, 1);
    try {
      const path = await host(client);
      await startLoopWindow(server);
      const served = await client.send({ method: 'GET', path });
      const stats = await loopWindowStats(server);
      expect(served.status).toBe(200);
      expect(served.headers['content-length']).toBe(String(image.length));
      const figures = `serving a ${IMAGE_BYTES.toLocaleString('en-US')} B hosted logo: ${Math.round(stats.mainThreadCpuMs)} ms of main-thread CPU, loop held at most ${Math.round(stats.maxStallMs)} ms`;
      process.stdout.write(`[reliability] cost-hosted-logo-size: ${figures}\n`);
      recordReliability({
        driver: 'cost',
        item: 'serve a 20 MB hosted logo',
        count: 1,
        failures:
          stats.mainThreadCpuMs > MAX_SERVE_CPU_MS ||
          stats.maxStallMs > MAX_LOOP_HOLD_MS
            ? 1
            : 0,
        note: figures,
      });
      expect(stats.mainThreadCpuMs).toBeLessThan(MAX_SERVE_CPU_MS);
      expect(stats.maxStallMs).toBeLessThan(MAX_LOOP_HOLD_MS);
    } finally {
      client.close();
      await server.stop();
      await database.drop();
    }
  }, 180_000);

  it(`purges ${EXPIRED_LOGOS} expired 20 MB logos without holding the loop over 50 ms`, async () => {
    const database = await createTestDatabase();
    const server = await startWith(database, { LOGO_URL_TTL_S: '1' });
    const started = Date.now();
    const client = new HttpClient(server.baseUrl, 1);
    try {
      for (let i = 0; i < EXPIRED_LOGOS; i++) await host(client);
      expect(await storedImageCount(database)).toBe(EXPIRED_LOGOS);
      // The window spans the first background run, a minute after start.
      await startLoopWindow(server);
      const deadline = started + PURGE_INTERVAL_MS + 60_000;
      while ((await storedImageCount(database)) > 0) {
        if (Date.now() > deadline) throw new Error('The purge never ran');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const stats = await loopWindowStats(server);
      const figures = `purging ${EXPIRED_LOGOS} expired ${IMAGE_BYTES.toLocaleString('en-US')} B hosted logos: loop held at most ${Math.round(stats.maxStallMs)} ms`;
      process.stdout.write(`[reliability] cost-hosted-logo-size: ${figures}\n`);
      recordReliability({
        driver: 'cost',
        item: 'purge expired 20 MB hosted logos',
        count: EXPIRED_LOGOS,
        failures: stats.maxStallMs > MAX_LOOP_HOLD_MS ? 1 : 0,
        note: figures,
      });
      expect(stats.maxStallMs).toBeLessThan(MAX_LOOP_HOLD_MS);
    } finally {
      client.close();
      await server.stop();
      await database.drop();
    }
  }, 240_000);
});
