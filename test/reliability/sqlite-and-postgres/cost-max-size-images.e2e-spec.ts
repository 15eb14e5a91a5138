import { POD_HEAP_FLAGS } from '../../../bench/pod-heap';
import {
  DEFAULT_IMAGE_API_CONCURRENCY,
  DEFAULT_IMAGE_MAX_BYTES,
} from '../../../src/logo/logo.config';
import type { LoopStats } from '../../support/event-loop-monitor';
import { DevImageApi, Replies } from '../../support/fake-image-api';
import { HttpClient } from '../../support/http-client';
import {
  LOOP_MONITOR_NODE_ARGS,
  loopWindowStats,
  startLoopWindow,
} from '../../support/loop-monitor';
import { megabytes } from '../../support/process-memory';
import { byScale, recordReliability } from '../../support/reliability';
import { startServer, type ServerProcess } from '../../support/server-process';
import {
  createTestDatabase,
  TEST_DATABASE,
  type TestDatabase,
} from '../../support/test-database';
import { hostedLogoPath, pngOf, requestLogo } from '../image-answers';

/** The Deployment's limits.memory (deploy/kubernetes/deployment.yaml). */
const POD_MEMORY_BYTES = 512 * 1024 * 1024;
/**
 * The most the server may reach: nine tenths of the pod's limit (461 MiB),
 * the rest (51 MiB) being room for what RSS does not show. Eight largest
 * answers at once peaked between 339 and 429 MiB across runs of one build
 * on 2026-11-29 (glibc's arenas and the moment the answers overlap decide
 * it; docs/operations.md's arithmetic gives about 430 MiB at worst), so
 * three quarters of the pod (384 MiB) failed runs without any change in
 * what the server holds.
 */
const MAX_RSS_BYTES = 0.9 * POD_MEMORY_BYTES;
/**
 * The longest the service may hold its event loop while decoding: 50 ms in
 * the long run; `npm test` shares the cores with the other suites and its
 * collector's pauses grow with them (20–42 ms measured), so it allows
 * 100 ms, still a third of the 290 ms of an answer read on the main thread.
 */
const MAX_LOOP_HOLD_MS = byScale(100, 50);
/**
 * With every call answering at once, the main thread also stores all the
 * images and collects their garbage in the same moments: its longest hold
 * measured 40–82 ms here (on a machine at load 8 on 2 cores), against
 * 490 ms when the answers were read on the main thread.
 */
const MAX_CONCURRENT_LOOP_HOLD_MS = byScale(200, 100);

/**
 * The worst case the defaults allow: IMAGE_API_CONCURRENCY upstream calls
 * at once, each answering an image of IMAGE_MAX_BYTES as base64, to the
 * built server run with the pod's heap flags. Its own peak RSS (sampled
 * every 10 ms inside it) must stay within the pod's memory with room to
 * spare; its event loop must never be held over 50 ms while one answer is
 * parsed, decoded and stored (100 ms while all of them are).
 */
describe(`Largest images at the default concurrency on ${TEST_DATABASE} (reliability)`, () => {
  let upstream: DevImageApi;
  let database: TestDatabase;
  let server: ServerProcess;
  let client: HttpClient;
  const image = pngOf(DEFAULT_IMAGE_MAX_BYTES);

  beforeAll(async () => {
    upstream = await DevImageApi.start({
      defaultReply: Replies.base64(image),
    });
    database = await createTestDatabase();
    server = await startServer(
      {
        DATABASE_URL: database.url,
        IMAGE_API_KEY: 'sk-reliability-max-size',
        IMAGE_API_URL: upstream.url,
        IMAGE_MODEL: 'gpt-image-2',
        LOGO_RATE_LIMIT: '0',
        // Every call of the test comes from one address.
        IMAGE_API_CLIENT_LIMIT: String(DEFAULT_IMAGE_API_CONCURRENCY),
        LOG_LEVEL: 'warn',
      },
      { nodeArgs: [...POD_HEAP_FLAGS, ...LOOP_MONITOR_NODE_ARGS], ipc: true },
    );
    client = new HttpClient(server.baseUrl, DEFAULT_IMAGE_API_CONCURRENCY);
    // The first answer also compiles the code that reads one: what is
    // measured is the cost of an answer, not of the process's warm-up.
    expect((await generate()).status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await server?.stop();
    await upstream?.close();
    await database?.drop();
  });

  const generate = () => requestLogo(client, 'Largest');

  async function measure(calls: number) {
    // What the server holds at rest, after a full collection.
    const atRest = (await loopWindowStats(server)).rssBytes;
    await startLoopWindow(server);
    const answers = await Promise.all(
      Array.from({ length: calls }, () => generate()),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    const stats: LoopStats = await loopWindowStats(server);
    return { answers, stats, atRest };
  }

  const report = (what: string, stats: LoopStats, atRest: number) => {
    const figures = `${what}: peak RSS ${megabytes(stats.maxRssBytes)} (${megabytes(atRest)} at rest), loop held at most ${Math.round(stats.maxStallMs)} ms (longest GC pause ${Math.round(stats.maxGcPauseMs)} ms)`;
    process.stdout.write(`[reliability] cost-max-size-images: ${figures}\n`);
    return figures;
  };

  it('decodes and stores one largest image without holding the event loop over 50 ms (100 ms in npm test)', async () => {
    const { answers, stats, atRest } = await measure(1);
    expect(answers[0].status).toBe(200);
    const figures = report(
      `one ${megabytes(DEFAULT_IMAGE_MAX_BYTES)} image`,
      stats,
      atRest,
    );
    recordReliability({
      driver: 'cost',
      item: 'one IMAGE_MAX_BYTES image, loop hold',
      count: 1,
      failures: stats.maxStallMs > MAX_LOOP_HOLD_MS ? 1 : 0,
      note: figures,
    });
    expect(stats.maxStallMs).toBeLessThan(MAX_LOOP_HOLD_MS);
  }, 120_000);

  it(`fits the pod's 512 MiB with ${DEFAULT_IMAGE_API_CONCURRENCY} largest images answered at once, the loop never held over 100 ms (200 ms in npm test)`, async () => {
    const { answers, stats, atRest } = await measure(
      DEFAULT_IMAGE_API_CONCURRENCY,
    );
    expect(answers.map((answer) => answer.status)).toEqual(
      answers.map(() => 200),
    );
    // Every image was hosted whole.
    const served = await client.send({
      method: 'GET',
      path: hostedLogoPath(answers[0].text),
    });
    expect(served.status).toBe(200);
    expect(served.headers['content-length']).toBe(String(image.length));
    const figures = report(
      `${DEFAULT_IMAGE_API_CONCURRENCY} x ${megabytes(DEFAULT_IMAGE_MAX_BYTES)} images at once`,
      stats,
      atRest,
    );
    recordReliability({
      driver: 'cost',
      item: 'IMAGE_API_CONCURRENCY largest images at once, peak RSS',
      count: DEFAULT_IMAGE_API_CONCURRENCY,
      failures:
        stats.maxRssBytes > MAX_RSS_BYTES ||
        stats.maxStallMs > MAX_CONCURRENT_LOOP_HOLD_MS
          ? 1
          : 0,
      note: figures,
    });
    expect(stats.maxRssBytes).toBeLessThan(MAX_RSS_BYTES);
    expect(stats.maxStallMs).toBeLessThan(MAX_CONCURRENT_LOOP_HOLD_MS);
  }, 300_000);
});
