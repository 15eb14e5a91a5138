import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { megabytes, residentBytes } from '../../support/process-memory';
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

/**
 * Just under the default BODY_LIMIT, and JSON until its very end: the
 * costliest body to read, parse and explain (`[1,1,…,1,x]`).
 */
const FLOOD_BODY = Buffer.from(`[${'1,'.repeat(490_000)}x]`);
const DURATION_MS = byScale(5_000, 20_000);
/**
 * Each server first takes a short flood that is not measured: a fresh
 * process's heap grows to its working size under its first few thousand
 * requests (about +90 to +125 MB on the first flood of a new process,
 * before and after the same code, and +15 to +55 MB on every later one),
 * and the bound is about what a flood adds to a running replica.
 */
const WARM_UP_MS = 1_000;
const MAX_RSS_GROWTH = 128 * 1024 * 1024;
/**
 * The liveness bound: 500 ms in the long run (`npm run test:reliability`,
 * one driver at a time); `npm test` shares 2 cores with everything else, so
 * there it only catches a process that stops answering.
 */
const MAX_PROBE_MS = isLongRun ? 500 : 10_000;
const PROBE_EVERY_MS = 200;

interface FloodFigures {
  baselineRss: number;
  peakRss: number;
  slowestProbeMs: number;
  cpuSeconds: number;
  requests: number;
  statuses: Record<string, number>;
}

/** The process's user + system CPU time, in seconds, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  // utime and stime are fields 14 and 15 of stat (12 and 13 after the name).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function send(
  agent: Agent,
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<number> {
  return new Promise((resolve) => {
    const call = request(
      `${baseUrl}${path}`,
      { method: body ? 'POST' : 'GET', agent, headers },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(0));
      },
    );
    call.on('error', () => resolve(0));
    call.end(body);
  });
}

/** Asks /health/live every PROBE_EVERY_MS; prints the slowest answer (ms). */
const PROBER_SOURCE = `
const http = require('node:http');
const [url, duration, every] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const deadline = Date.now() + Number(duration);
let slowest = 0;
const probe = () => new Promise((resolve) => {
  const started = performance.now();
  http.get(url + '/health/live', { agent }, (response) => {
    response.resume();
    response.on('end', () => resolve(response.statusCode === 200 ? performance.now() - started : Infinity));
  }).on('error', () => resolve(Infinity));
});
(async () => {
  while (Date.now() < deadline) {
    slowest = Math.max(slowest, await probe());
    await new Promise((resolve) => setTimeout(resolve, Number(every)));
  }
  process.stdout.write(JSON.stringify(slowest === Infinity ? -1 : slowest));
  agent.destroy();
})();
`;

/** The slowest liveness answer over `durationMs`, from another process. */
async function probeLiveness(
  baseUrl: string,
  durationMs: number,
): Promise<number> {
  const child = spawn(
    process.execPath,
    ['-e', PROBER_SOURCE, baseUrl, String(durationMs), String(PROBE_EVERY_MS)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await once(child, 'exit');
  const slowest = Number(output);
  // A failed or missing probe answer counts as never answered.
  return slowest >= 0 && output !== '' ? slowest : Infinity;
}

/**
 * `connections` clients sending FLOOD_BODY to `path` back to back for
 * `durationMs`, while the liveness probe is asked every PROBE_EVERY_MS on a
 * connection of its own and the server's RSS is sampled.
 */
async function flood(
  server: ServerProcess,
  path: string,
  connections: number,
  durationMs = DURATION_MS,
): Promise<FloodFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const baselineRss = residentBytes(server.pid);
  const cpuBefore = cpuSeconds(server.pid);
  const deadline = Date.now() + durationMs;
  let peakRss = baselineRss;
  let slowestProbeMs = 0;
  let requests = 0;
  const statuses: Record<string, number> = {};
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, residentBytes(server.pid));
  }, 50);
  // In a process of its own, as the kubelet is: the flood's own sockets in
  // this process would otherwise delay the probe's answer here.
  const prober = probeLiveness(server.baseUrl, durationMs).then((ms) => {
    slowestProbeMs = ms;
  });
  const senders = Array.from({ length: connections }, async () => {
    while (Date.now() < deadline) {
      const status = await send(
        agent,
        server.baseUrl,
        path,
        { 'content-type': 'application/json' },
        FLOOD_BODY,
      );
      requests++;
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  });
  await Promise.all([...senders, prober]);
  clearInterval(sampler);
  agent.destroy();
  return {
    baselineRss,
    peakRss,
    slowestProbeMs,
    cpuSeconds: cpuSeconds(server.pid) - cpuBefore,
    requests,
    statuses,
  };
}

/**
 * Anonymous clients sending ~1 MB bodies that stop being JSON at their end:
 * to a route that does not exist, to a route that reads them, and (with
 * AUTH_MODE=oidc) to a route without a token. The process's memory grows
 * by at most 128 MB and its liveness probe (asked from another process)
 * answers within 500 ms in the long run, at 10 and at 50 connections.
 */
describe('Anonymous flood of large bodies (reliability)', () => {
  let database: TestDatabase;
  let open: ServerProcess;
  let guarded: ServerProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    open = await startServer({
      DATABASE_URL: database.url,
      LOG_LEVEL: 'error',
    });
    guarded = await startServer({
      DATABASE_URL: database.url,
      LOG_LEVEL: 'error',
      MIGRATIONS_RUN: 'false',
      AUTH_MODE: 'oidc',
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
      // Never asked: a request without a token is refused before any key
      // is needed.
      AUTH_ISSUER: 'http://127.0.0.1:9/',
      AUTH_AUDIENCE: 'workspace-api',
    });
    await flood(open, '/api/projects', 10, WARM_UP_MS);
    await flood(guarded, '/api/projects', 10, WARM_UP_MS);
  }, 60_000);

  afterAll(async () => {
    await open?.stop();
    await guarded?.stop();
    await database?.drop();
  });

  const cases: Array<[string, () => ServerProcess, string]> = [
    ['an unknown route', () => open, '/api/no-such-route'],
    ['POST /api/projects (AUTH_MODE=none)', () => open, '/api/projects'],
    // The route that answers the parse error's message.
    [
      'POST /api/ai/generate-logo (AUTH_MODE=none)',
      () => open,
      '/api/ai/generate-logo',
    ],
    [
      'POST /api/projects without a token (AUTH_MODE=oidc)',
      () => guarded,
      '/api/projects',
    ],
  ];

  for (const connections of [10, 50]) {
    it.each(cases)(
      `keeps RSS growth within 128 MB and liveness within ${MAX_PROBE_MS} ms: %s, ${connections} connections`,
      async (label, server, path) => {
        const figures = await flood(server(), path, connections);
        const growth = figures.peakRss - figures.baselineRss;
        const line = `${label}, ${connections} connections: RSS ${megabytes(figures.baselineRss)} → peak ${megabytes(figures.peakRss)} (+${megabytes(growth)}), slowest liveness probe ${Math.round(figures.slowestProbeMs)} ms, ${figures.cpuSeconds.toFixed(1)} CPU-s in ${DURATION_MS / 1000} s, ${figures.requests} requests ${JSON.stringify(figures.statuses)}`;
        process.stdout.write(`[reliability] flood: ${line}\n`);
        const failed =
          growth > MAX_RSS_GROWTH || figures.slowestProbeMs > MAX_PROBE_MS;
        recordReliability({
          driver: 'flood',
          item: `${label}, ${connections} connections`,
          count: figures.requests,
          failures: failed ? 1 : 0,
        });
        expect(growth).toBeLessThanOrEqual(MAX_RSS_GROWTH);
        expect(figures.slowestProbeMs).toBeLessThanOrEqual(MAX_PROBE_MS);
      },
      DURATION_MS + 30_000,
    );
  }
});
