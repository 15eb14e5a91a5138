import { get } from 'node:http';
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Backend, BackendKind } from './databases';
import { POD_HEAP_FLAGS } from './pod-heap';
import { peakRssBytes, resetPeakRss, rssBytes } from './proc-stats';
import { sleep } from './processes';
import { seededUserId } from './seed-rows';
import { startService } from './service';
import { summarize } from './stats';

/**
 * The full list (GET /api/projects, no page) of a large workspace: one
 * client reads it as fast as it can while another sends GETs by id one
 * after the other. Each size gets a fresh database and a fresh service.
 */

export const LARGE_LIST_SIZES = [100_000, 500_000];
const PROJECTS_PER_USER = 20;
/** Lists of the 1,000-project database timed for the per-project reference. */
const REFERENCE_LISTS = 20;

export const TARGETS = {
  rssGrowthBytes: 64 * 2 ** 20,
  firstByteMs: 50,
  concurrentGetP99Ms: 50,
};

export interface LargeListResult {
  kind: BackendKind;
  projects: number;
  bodyBytes: number;
  firstByteMs: number;
  totalMs: number;
  mbPerSecond: number;
  projectsPerSecond: number;
  rssGrowthBytes: number;
  concurrentGets: {
    count: number;
    errors: number;
    p50Ms: number;
    p99Ms: number;
    maxMs: number;
  };
}

interface ListTiming {
  status: number;
  bytes: number;
  firstByteMs: number;
  totalMs: number;
}

/** Reads a whole response, counting bytes; keeps none of them. */
function timeList(url: string): Promise<ListTiming> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      let bytes = 0;
      let firstByteMs = NaN;
      res.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
      });
      res.once('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          firstByteMs,
          totalMs: performance.now() - started,
        }),
      );
      res.once('error', reject);
    }).once('error', reject);
  });
}

function timedGet(url: string): Promise<{ ok: boolean; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    get(url, { agent: false }, (res) => {
      res.resume();
      res.once('end', () =>
        resolve({
          ok: res.statusCode === 200,
          ms: performance.now() - started,
        }),
      );
    }).once('error', () =>
      resolve({ ok: false, ms: performance.now() - started }),
    );
  });
}

/** Projects per second of the full list of the 1,000-project service. */
export async function referenceProjectsPerSecond(
  smallBaseUrl: string,
): Promise<number> {
  await timeList(`${smallBaseUrl}/api/projects`);
  let totalMs = 0;
  for (let i = 0; i < REFERENCE_LISTS; i += 1) {
    totalMs += (await timeList(`${smallBaseUrl}/api/projects`)).totalMs;
  }
  return (REFERENCE_LISTS * 1_000) / (totalMs / 1000);
}

export async function measureLargeLists(
  backend: Backend,
  workDir: string,
  log: (text: string) => void,
): Promise<LargeListResult[]> {
  const results: LargeListResult[] = [];
  for (const projects of LARGE_LIST_SIZES) {
    const seedStarted = performance.now();
    const database = await backend.seeded(`large_${projects}`, {
      projects,
      users: projects / PROJECTS_PER_USER,
    });
    log(
      `${backend.kind} large list: seeded ${projects.toLocaleString('en')} projects in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`,
    );
    const service = await startService({
      name: `large-${projects}`,
      databaseUrl: database.url,
      workDir,
      nodeArgs: POD_HEAP_FLAGS,
    });
    try {
      // Warm-up: the code paths compiled, the pools open.
      await timeList(
        `${service.baseUrl}/api/projects?userId=${seededUserId(1)}`,
      );
      await timedGet(`${service.baseUrl}/api/projects/${database.ids[0]}`);

      const baseline = rssBytes(service.pid);
      const kernelPeak = resetPeakRss(service.pid);
      let sampledPeak = baseline;
      const sampler = setInterval(() => {
        sampledPeak = Math.max(sampledPeak, rssBytes(service.pid));
      }, 20);

      let listing = true;
      const gets: Array<{ ok: boolean; ms: number }> = [];
      const prober = (async () => {
        for (let i = 0; listing; i += 1) {
          const id = database.ids[(i * 7919) % database.ids.length];
          gets.push(await timedGet(`${service.baseUrl}/api/projects/${id}`));
          await sleep(10);
        }
      })();
      const list = await timeList(`${service.baseUrl}/api/projects`);
      listing = false;
      await prober;
      clearInterval(sampler);
      if (list.status !== 200) {
        throw new Error(`the list answered ${list.status}`);
      }

      const latencies = summarize(gets.map((g) => g.ms));
      const result: LargeListResult = {
        kind: backend.kind,
        projects,
        bodyBytes: list.bytes,
        firstByteMs: list.firstByteMs,
        totalMs: list.totalMs,
        mbPerSecond: list.bytes / 2 ** 20 / (list.totalMs / 1000),
        projectsPerSecond: projects / (list.totalMs / 1000),
        rssGrowthBytes:
          (kernelPeak ? peakRssBytes(service.pid) : sampledPeak) - baseline,
        concurrentGets: {
          count: gets.length,
          errors: gets.filter((g) => !g.ok).length,
          p50Ms: latencies.p50Ms,
          p99Ms: latencies.p99Ms,
          maxMs: latencies.maxMs,
        },
      };
      results.push(result);
      log(
        `${backend.kind} list all ${projects.toLocaleString('en')}: ${(list.bytes / 2 ** 20).toFixed(0)} MB, first byte ${list.firstByteMs.toFixed(1)} ms, ` +
          `total ${(list.totalMs / 1000).toFixed(2)} s (${result.mbPerSecond.toFixed(0)} MB/s, ${result.projectsPerSecond.toFixed(0)} projects/s), ` +
          `RSS +${(result.rssGrowthBytes / 2 ** 20).toFixed(1)} MB, ${gets.length} GETs by id meanwhile: p99 ${latencies.p99Ms.toFixed(1)} ms`,
      );
    } finally {
      await service.stop();
      // A 500,000-project SQLite file is over a gigabyte: not kept for later.
      if (database.url.startsWith('file:')) {
        rmSync(database.url.slice('file:'.length), { force: true });
      }
    }
  }
  return results;
}

export interface LargeListRun {
  kind: BackendKind;
  /** Projects per second of the 1,000-project full list, for comparison. */
  referenceProjectsPerSecond: number;
  results: LargeListResult[];
}

const mark = (ok: boolean) => (ok ? 'pass' : '**FAIL**');

/** Each target of one large list, as pass (true) or fail. */
function checks(run: LargeListRun, r: LargeListResult) {
  return {
    firstByte: r.firstByteMs <= TARGETS.firstByteMs,
    throughput: r.projectsPerSecond >= run.referenceProjectsPerSecond,
    rss: r.rssGrowthBytes <= TARGETS.rssGrowthBytes,
    concurrentGets:
      r.concurrentGets.p99Ms <= TARGETS.concurrentGetP99Ms &&
      r.concurrentGets.errors === 0,
  };
}

export const largeListTargetsMet = (runs: LargeListRun[]): boolean =>
  runs.every((run) =>
    run.results.every((r) => Object.values(checks(run, r)).every(Boolean)),
  );

/** The markdown table of the large-list runs, each target marked. */
export function largeListTable(runs: LargeListRun[]): string {
  const rows = runs.flatMap((run) =>
    run.results.map((r) => {
      const ok = checks(run, r);
      return [
        run.kind,
        r.projects.toLocaleString('en'),
        `${(r.bodyBytes / 2 ** 20).toFixed(0)} MB`,
        `${r.firstByteMs.toFixed(1)} ms ${mark(ok.firstByte)}`,
        `${(r.totalMs / 1000).toFixed(2)} s`,
        `${r.mbPerSecond.toFixed(0)}`,
        `${r.projectsPerSecond.toFixed(0)} vs ${run.referenceProjectsPerSecond.toFixed(0)} ${mark(ok.throughput)}`,
        `${(r.rssGrowthBytes / 2 ** 20).toFixed(1)} MB ${mark(ok.rss)}`,
        `${r.concurrentGets.p99Ms.toFixed(1)} ms (${r.concurrentGets.count}, ${r.concurrentGets.errors} errors) ${mark(ok.concurrentGets)}`,
      ];
    }),
  );
  const header = [
    'database',
    'projects',
    'body',
    'first byte (≤ 50 ms)',
    'total',
    'MB/s',
    'projects/s vs 1,000-project list',
    'RSS growth (≤ 64 MB)',
    'GET by id p99 meanwhile (≤ 50 ms)',
  ];
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}
