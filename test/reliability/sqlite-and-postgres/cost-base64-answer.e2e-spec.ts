import type { LoopStats } from '../../support/event-loop-monitor';
import {
  LOOP_MONITOR_NODE_ARGS,
  loopWindowStats,
  startLoopWindow,
} from '../../support/loop-monitor';
import { DevImageApi, Replies } from '../../support/fake-image-api';
import { HttpClient } from '../../support/http-client';
import {
  byScale,
  isLongRun,
  recordReliability,
} from '../../support/reliability';
import { startServer, type ServerProcess } from '../../support/server-process';
import {
  createTestDatabase,
  type TestDatabase,
} from '../../support/test-database';
import { hostedLogoPath, pngOf, requestLogo } from '../image-answers';

/** A 4 MB image: about 5.6 MB of base64 in the upstream's answer. */
const IMAGE_BYTES = 4 * 1024 * 1024;
/** The longest the service may hold its event loop for one answer. */
const MAX_LOOP_HOLD_MS = 50;
const REPEATS = byScale(1, 3);

/**
 * The cost of a GPT image model's answer: a 4 MB image as base64, read,
 * decoded, checked and stored (POST), then served back (GET), one request
 * at a time to the built server with the event loop measured inside it.
 * `npm test` checks the answers; the long run also checks that neither
 * holds the loop longer than 50 ms, and prints the figures.
 */
describe('Cost of a 4 MB base64 image answer (reliability)', () => {
  let upstream: DevImageApi;
  let database: TestDatabase;
  let server: ServerProcess;
  let client: HttpClient;
  const image = pngOf(IMAGE_BYTES);

  beforeAll(async () => {
    upstream = await DevImageApi.start({
      defaultReply: Replies.base64(image),
    });
    database = await createTestDatabase();
    server = await startServer(
      {
        DATABASE_URL: database.url,
        IMAGE_API_KEY: 'sk-reliability-base64',
        IMAGE_API_URL: upstream.url,
        IMAGE_MODEL: 'gpt-image-2',
        LOGO_RATE_LIMIT: '0',
        LOG_LEVEL: 'warn',
      },
      {
        nodeArgs: LOOP_MONITOR_NODE_ARGS,
        ipc: true,
      },
    );
    client = new HttpClient(server.baseUrl, 1);
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await server?.stop();
    await upstream?.close();
    await database?.drop();
  });

  async function measure(send: () => ReturnType<HttpClient['send']>) {
    await startLoopWindow(server);
    const started = performance.now();
    const answer = await send();
    const answerMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 30));
    const stats = await loopWindowStats(server);
    return { answer, answerMs, stats };
  }

  it(
    'stores and serves the image and, in the long run, holds the event loop at most 50 ms for either',
    async () => {
      const worst = {
        store: { answerMs: 0, stallMs: 0, delayMs: 0 },
        serve: { answerMs: 0, stallMs: 0, delayMs: 0 },
      };
      const keep = (
        step: keyof typeof worst,
        m: { answerMs: number; stats: LoopStats },
      ) => {
        if (m.stats.maxStallMs >= worst[step].stallMs) {
          worst[step] = {
            answerMs: m.answerMs,
            stallMs: m.stats.maxStallMs,
            delayMs: m.stats.maxDelayMs,
          };
        }
      };
      for (let round = 0; round < REPEATS; round++) {
        const stored = await measure(() => requestLogo(client, 'Large'));
        expect(stored.answer.status).toBe(200);
        keep('store', stored);
        const served = await measure(() =>
          client.send({
            method: 'GET',
            path: hostedLogoPath(stored.answer.text),
          }),
        );
        expect(served.answer.status).toBe(200);
        expect(served.answer.headers['content-length']).toBe(
          String(image.length),
        );
        keep('serve', served);
      }
      const failures: string[] = [];
      for (const [step, result] of Object.entries(worst)) {
        const figures = `${step} ${IMAGE_BYTES.toLocaleString('en-US')} B image in ${Math.round(result.answerMs)} ms, loop held ${Math.round(result.stallMs)} ms (delay ${Math.round(result.delayMs)} ms)`;
        process.stdout.write(`[reliability] cost-base64: ${figures}\n`);
        const failed = isLongRun && result.stallMs > MAX_LOOP_HOLD_MS;
        if (failed) failures.push(figures);
        recordReliability({
          driver: 'cost',
          item: `${step} a 4 MB base64 image`,
          count: REPEATS,
          failures: failed ? 1 : 0,
        });
      }
      expect(failures).toEqual([]);
    },
    byScale(60_000, 180_000),
  );
});
