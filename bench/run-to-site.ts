import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { codeVersionOf, startBenchRun } from './bench-run';
import { postgresBackend, sqliteBackend, type Backend } from './databases';
import { startDevImageApi, startDevTextApi } from './dev-apis';
import { cpuTimeUs } from './proc-stats';
import { sleep } from './processes';
import { freePort, startService } from './service';
import { positive, readSettings, REPO_ROOT, RESULTS_DIR } from './settings';
import { serviceEnv } from './stage';
import { median } from './stats';

/**
 * `npm run bench:run`: one run from a new project's brief to a live site
 * (`POST …/runs {"autoChoose": true}`, every step, all eight sections
 * DONE), against the dev image and text APIs answering at once (0 ms), so
 * what is measured is the service's own work: wall time from the POST to
 * SUCCEEDED (the server's clock: the run's createdAt to its updatedAt)
 * and the server process's CPU over the run. BENCH_RUNS runs one after
 * the other (default 5) on SQLite and, with BENCH_POSTGRES_URL, on
 * PostgreSQL (API and worker in one process there too: the CPU is one
 * process's).
 */

const settings = readSettings();
const RUNS = Math.round(positive('BENCH_RUNS', 5));
const POLL_MS = 25;
const RUN_TIMEOUT_MS = 120_000;

interface RunSample {
  wallMs: number;
  serverWallMs: number;
  cpuMs: number;
  steps: number;
  siteStatus: number;
}

interface RunBody {
  run: {
    id: string;
    status: string;
    createdAt: string;
    updatedAt: string;
    steps: Array<{ type: string; status: string }>;
    siteUrl?: string;
  };
}

const FINISHED = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json' },
  });
  if (!response.ok) {
    throw new Error(
      `${init?.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`,
    );
  }
  return (await response.json()) as T;
}

async function oneRun(
  baseUrl: string,
  pid: number,
  n: number,
): Promise<RunSample> {
  const { project } = await json<{ project: { id: string } }>(
    `${baseUrl}/api/projects`,
    {
      method: 'POST',
      body: JSON.stringify({ name: `Bench run ${n}`, userId: `bench-${n}` }),
    },
  );
  const cpuBefore = cpuTimeUs(pid);
  const started = performance.now();
  let { run } = await json<RunBody>(
    `${baseUrl}/api/projects/${project.id}/runs`,
    {
      method: 'POST',
      body: JSON.stringify({ autoChoose: true }),
    },
  );
  while (!FINISHED.has(run.status)) {
    if (performance.now() - started > RUN_TIMEOUT_MS) {
      throw new Error(
        `run ${run.id} still ${run.status} after ${RUN_TIMEOUT_MS} ms`,
      );
    }
    await sleep(POLL_MS);
    ({ run } = await json<RunBody>(
      `${baseUrl}/api/projects/${project.id}/runs/${run.id}`,
    ));
  }
  const wallMs = performance.now() - started;
  const cpuMs = (cpuTimeUs(pid) - cpuBefore) / 1000;
  if (run.status !== 'SUCCEEDED') {
    throw new Error(
      `run ${run.id} ended ${run.status}: ${JSON.stringify(run.steps)}`,
    );
  }
  const site = run.siteUrl ? await fetch(run.siteUrl) : undefined;
  return {
    wallMs,
    serverWallMs: Date.parse(run.updatedAt) - Date.parse(run.createdAt),
    cpuMs,
    steps: run.steps.length,
    siteStatus: site?.status ?? 0,
  };
}

async function measure(backend: Backend, workDir: string) {
  const images = await startDevImageApi(0);
  const texts = await startDevTextApi(0);
  const database = await backend.seeded('runs', { projects: 0, users: 0 });
  const sitesPort = await freePort();
  const service = await startService({
    name: `runs-${backend.kind}`,
    databaseUrl: database.url,
    workDir,
    env: {
      ...serviceEnv('warn'),
      IMAGE_API_URL: images.url,
      TEXT_API_KEY: 'bench-key',
      TEXT_API_URL: texts.url,
      SITES_PORT: String(sitesPort),
      SITES_HOST: '127.0.0.1',
      SITES_BASE_URL: `http://127.0.0.1:${sitesPort}`,
    },
  });
  try {
    // The first run pays for first use (compilation, caches): reported apart.
    const first = await oneRun(service.baseUrl, service.pid, 0);
    const samples: RunSample[] = [];
    for (let n = 1; n <= RUNS; n++) {
      samples.push(await oneRun(service.baseUrl, service.pid, n));
    }
    return { backend: backend.kind, first, samples };
  } finally {
    await service.stop();
    await images.stop();
    await texts.stop();
  }
}

async function main() {
  const run = startBenchRun('workspace-bench-runs-');
  try {
    run.backends.push(await sqliteBackend(run.workDir));
    if (settings.postgresUrl) {
      run.backends.push(postgresBackend(settings.postgresUrl, run.workDir));
    }
    const results = [];
    for (const backend of run.backends) {
      const result = await measure(backend, run.workDir);
      results.push(result);
      const wall = median(result.samples.map((sample) => sample.serverWallMs));
      const cpu = median(result.samples.map((sample) => sample.cpuMs));
      console.log(
        `${result.backend}: ${RUNS} runs, median wall ${wall.toFixed(0)} ms (server clock), ` +
          `server CPU ${cpu.toFixed(0)} ms, ${result.samples[0].steps} steps, site ${result.samples[0].siteStatus}; ` +
          `first run ${result.first.serverWallMs.toFixed(0)} ms / ${result.first.cpuMs.toFixed(0)} ms CPU`,
      );
    }
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = join(
      RESULTS_DIR,
      `runs-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
    );
    writeFileSync(
      file,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          code: codeVersionOf(REPO_ROOT),
          machine: { cpus: cpus().length, loadavg: loadavg() },
          runs: RUNS,
          results,
        },
        null,
        2,
      ),
    );
    console.log(`results: ${file}`);
  } finally {
    await run.cleanup();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
