import autocannon from 'autocannon';
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sqliteBackend } from './databases';
import { POD_HEAP_FLAGS } from './pod-heap';
import {
  pinSelf,
  sleep,
  spawnPinned,
  stopAllProcesses,
  stopProcess,
  tsNodeArgs,
} from './processes';
import { freePort, probe, startService } from './service';
import {
  LOAD_CORE,
  positive,
  REPO_ROOT,
  RESULTS_DIR,
  SERVER_CORE,
  SERVER_ENTRY,
} from './settings';
import { serviceEnv } from './stage';
import { summarize } from './stats';

/**
 * `npm run bench:first-seconds`: GET by id at a fixed rate, open loop
 * (bench/open-loop.ts), from the moment a fresh process answers
 * /health/ready, for the service and for a minimal NestJS 12 app doing the
 * same three SQLite reads (minimal-nest-app.ts), interleaved in each round.
 * Reports p50/p99/max over the first 15 s after readiness and over the 15 s
 * after those (steady state), and the cold start (spawn to the first 200
 * on /health/ready). Every server runs on the server core with the pod's
 * heap flags; the load on the other core.
 *
 * BENCH_ROUNDS (3), BENCH_RATE (half the service's measured maximum),
 * BENCH_BASELINE_ENTRY (other builds' entries, comma-separated, e.g. an
 * unbundled dist/src/main.js: the first is named "before", the others by
 * their path).
 */

const WINDOW_S = 15;
/** The targets: tails within this factor of the minimal app's, and start-up. */
const TAIL_FACTOR = 2;
const COLD_START_MS = 800;
const MINIMAL = 'minimal NestJS app';
const PROJECTS = 20_000;
const USERS = 1_000;

interface Target {
  name: string;
  start(port: number): ReturnType<typeof spawnPinned>;
}

/** bench/open-loop.ts's answer (JSON turns a missing latency into null). */
interface OpenLoopResult {
  dueMs: number[];
  latencyMs: (number | null)[];
  errors: number;
}

interface Row {
  target: string;
  round: number;
  readyMs: number;
  errors: number;
  first: ReturnType<typeof summarize>;
  steady: ReturnType<typeof summarize>;
}

function runOpenLoop(
  baseUrl: string,
  idsFile: string,
  rate: number,
  seconds: number,
): Promise<OpenLoopResult> {
  return new Promise((resolvePromise, reject) => {
    const args = tsNodeArgs(join(__dirname, 'open-loop.ts'), [
      baseUrl,
      idsFile,
      String(rate),
      String(seconds),
    ]);
    execFile(
      'taskset',
      ['-c', String(LOAD_CORE), process.execPath, ...args],
      { cwd: REPO_ROOT, maxBuffer: 256 * 2 ** 20 },
      (error, stdout) => {
        if (error) reject(new Error(`open-loop.ts failed: ${error.message}`));
        else resolvePromise(JSON.parse(stdout) as OpenLoopResult);
      },
    );
  });
}

/** Requests per second the service answers when saturated (30 connections). */
async function maximumRate(baseUrl: string, ids: string[]): Promise<number> {
  const once = (duration: number) =>
    autocannon({
      url: baseUrl,
      connections: 30,
      duration,
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            path: `/api/projects/${ids[Math.floor(Math.random() * ids.length)]}`,
          }),
        },
      ],
    });
  await once(3);
  const result = await once(5);
  return result.requests.average;
}

async function waitReady(url: string, started: number): Promise<number> {
  for (;;) {
    if ((await probe(url)) === 200) return performance.now() - started;
    if (performance.now() - started > 60_000) {
      throw new Error(`${url} never answered 200`);
    }
    await sleep(5);
  }
}

async function main(): Promise<void> {
  pinSelf(LOAD_CORE);
  const rounds = positive('BENCH_ROUNDS', 3);
  const workDir = mkdtempSync(join(tmpdir(), 'bench-first-'));
  try {
    const minimalEntry = join(
      REPO_ROOT,
      'dist',
      'bench',
      'minimal-nest-app.js',
    );
    mkdirSync(join(REPO_ROOT, 'dist', 'bench'), { recursive: true });
    await build({
      entryPoints: [join(__dirname, 'minimal-nest-app.ts')],
      outfile: minimalEntry,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'cjs',
      logLevel: 'warning',
    });

    const backend = await sqliteBackend(workDir);
    const seeded = await backend.seeded('first', {
      projects: PROJECTS,
      users: USERS,
    });
    const file = seeded.url.slice('file:'.length);
    const idsFile = join(workDir, 'ids.json');
    writeFileSync(idsFile, JSON.stringify(seeded.ids));

    const env = (port: number) => ({
      ...process.env,
      ...serviceEnv(),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: seeded.url,
      IMAGE_API_URL: 'http://127.0.0.1:9',
    });
    const service = (name: string, entry: string): Target => ({
      name,
      start: (port) =>
        spawnPinned(SERVER_CORE, process.execPath, [...POD_HEAP_FLAGS, entry], {
          env: env(port),
          cwd: workDir,
          stdio: 'ignore',
        }),
    });
    const targets: Target[] = [
      service('service', SERVER_ENTRY),
      ...(process.env.BENCH_BASELINE_ENTRY ?? '')
        .split(',')
        .filter((entry) => entry !== '')
        .map((entry, i) => service(i === 0 ? 'before' : entry, entry)),
      {
        name: MINIMAL,
        start: (port) =>
          spawnPinned(
            SERVER_CORE,
            process.execPath,
            [...POD_HEAP_FLAGS, minimalEntry, file, String(port)],
            { cwd: workDir, stdio: 'ignore' },
          ),
      },
    ];

    let rate = positive('BENCH_RATE', NaN);
    if (Number.isNaN(rate)) {
      const probeService = await startService({
        name: 'max-rate',
        databaseUrl: seeded.url,
        workDir,
        env: serviceEnv(),
        nodeArgs: POD_HEAP_FLAGS,
        readyPath: '/health/ready',
      });
      const max = await maximumRate(probeService.baseUrl, seeded.ids);
      await probeService.stop();
      rate = Math.max(50, Math.round(max / 2 / 50) * 50);
      console.log(
        `service maximum ${Math.round(max)} req/s: rate ${rate} req/s`,
      );
    }

    const rows: Row[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      // Each round starts with the next target, so none always goes first.
      const order = targets.map(
        (_, i) => targets[(i + round - 1) % targets.length],
      );
      for (const target of order) {
        const port = await freePort();
        const started = performance.now();
        const child = target.start(port);
        const baseUrl = `http://127.0.0.1:${port}`;
        try {
          const readyMs = await waitReady(`${baseUrl}/health/ready`, started);
          const run = await runOpenLoop(baseUrl, idsFile, rate, 2 * WINDOW_S);
          const first: number[] = [];
          const steady: number[] = [];
          run.latencyMs.forEach((latency, n) => {
            if (latency === null) return;
            (run.dueMs[n] < WINDOW_S * 1000 ? first : steady).push(latency);
          });
          const row: Row = {
            target: target.name,
            round,
            readyMs,
            errors: run.errors,
            first: summarize(first),
            steady: summarize(steady),
          };
          rows.push(row);
          console.log(
            `round ${round} ${target.name}: ready ${readyMs.toFixed(0)} ms; first ${WINDOW_S} s p99 ${row.first.p99Ms.toFixed(1)} max ${row.first.maxMs.toFixed(0)} ms; steady p99 ${row.steady.p99Ms.toFixed(1)} ms; errors ${run.errors}`,
          );
        } finally {
          await stopProcess(child);
        }
      }
    }
    report(rows, rate);
    mkdirSync(RESULTS_DIR, { recursive: true });
    const stamp = new Date().toISOString().replace(/:/g, '-').slice(0, 19);
    writeFileSync(
      join(RESULTS_DIR, `first-seconds-${stamp}Z.json`),
      `${JSON.stringify({ rate, rounds, rows }, null, 2)}\n`,
    );
  } finally {
    await stopAllProcesses();
    rmSync(workDir, { recursive: true, force: true });
  }
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? sorted[middle]
    : (sorted[middle - 1] + sorted[middle]) / 2;
}

function report(rows: Row[], rate: number): void {
  console.log(
    `\nGET by id at ${rate} req/s, open loop; medians over rounds (ms)`,
  );
  console.log(
    '| target | ready | first 15 s p50 | first 15 s p99 | first 15 s max | steady p50 | steady p99 | steady max |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const name of [...new Set(rows.map((row) => row.target))]) {
    const mine = rows.filter((row) => row.target === name);
    const m = (pick: (row: Row) => number) =>
      medianOf(mine.map(pick)).toFixed(1);
    console.log(
      `| ${name} | ${m((r) => r.readyMs)} | ${m((r) => r.first.p50Ms)} | ${m((r) => r.first.p99Ms)} | ${m((r) => r.first.maxMs)} | ${m((r) => r.steady.p50Ms)} | ${m((r) => r.steady.p99Ms)} | ${m((r) => r.steady.maxMs)} |`,
    );
  }
  verdict(rows);
}

/**
 * The targets, on the medians over the rounds: the service's first 15 s
 * p99 and max within TAIL_FACTOR × the minimal NestJS app's of the same
 * run, and its cold start (spawn to ready) within COLD_START_MS.
 */
function verdict(rows: Row[]): void {
  const median = (name: string, pick: (row: Row) => number) =>
    medianOf(rows.filter((row) => row.target === name).map(pick));
  const checks = [
    {
      name: `first ${WINDOW_S} s p99 ≤ ${TAIL_FACTOR} × the minimal app's`,
      service: median('service', (r) => r.first.p99Ms),
      limit: TAIL_FACTOR * median(MINIMAL, (r) => r.first.p99Ms),
    },
    {
      name: `first ${WINDOW_S} s max ≤ ${TAIL_FACTOR} × the minimal app's`,
      service: median('service', (r) => r.first.maxMs),
      limit: TAIL_FACTOR * median(MINIMAL, (r) => r.first.maxMs),
    },
    {
      name: `cold start ≤ ${COLD_START_MS} ms`,
      service: median('service', (r) => r.readyMs),
      limit: COLD_START_MS,
    },
  ];
  console.log('');
  for (const check of checks) {
    console.log(
      `${check.service <= check.limit ? 'pass' : '**FAIL**'}: ${check.name} (${check.service.toFixed(1)} against ${check.limit.toFixed(1)})`,
    );
  }
}

main().catch(async (error: unknown) => {
  console.error(error);
  await stopAllProcesses();
  process.exit(1);
});
