import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, release } from 'node:os';
import { join } from 'node:path';
import { codeVersionOf, startBenchRun } from './bench-run';
import {
  postgresBackend,
  sqliteBackend,
  type Backend,
  type PostgresBackend,
} from './databases';
import { startDevImageApi, startDevTextApi } from './dev-apis';
import type { Batch } from './ref-pg-boss-batch';
import { LoadGenerator } from './load-client';
import { measureTimed, type TimedSample } from './measure';
import { cpuSpent, cpuTimeUs, cpuTimesByName } from './proc-stats';
import { hasTaskset, pinSelf, runScript, sleep } from './processes';
import { startService, type Service } from './service';
import {
  ID_SAMPLE_SIZE,
  LOAD_CORE,
  MAIN_DATA,
  positive,
  readSettings,
  REPO_ROOT,
  RESULTS_DIR,
  SERVER_CORE,
} from './settings';
import { serviceEnv } from './stage';
import { median, summarize } from './stats';
import {
  keepInFlight,
  queueProbe,
  readTasks,
  submitMany,
  waitUntilDrained,
  type BenchTaskType,
  type QueueProbe,
} from './task-load';

/**
 * `npm run bench:tasks`: background tasks, on SQLite (embedded engine) and,
 * with BENCH_POSTGRES_URL, PostgreSQL (pg-boss), TASK_CONCURRENCY 4.
 *
 * 1. Tasks per second: BENCH_TASKS tasks (logo with count 1, then
 *    marketing copy) over BENCH_TASK_PROJECTS projects, submitted as fast
 *    as the service accepts them, against the dev image and text APIs
 *    answering at once; from the first task's createdAt to the last one's
 *    finishedAt, both the server's clock. Beside it, in each round, the
 *    reference (with BENCH_POSTGRES_URL): pg-boss alone, with the
 *    service's settings and a handler that does nothing, the same number
 *    of jobs on a database of its own (bench/ref-pg-boss.ts), pinned to
 *    the server's core while the service idles. The service's CPU per task
 *    beyond it is the service's own overhead.
 * 2. GET /api/projects/{id} (random seeded ids, the get-by-id scenario)
 *    CPU per request, idle and with 4 logo tasks RUNNING throughout beside
 *    it (dev image API answering after BENCH_TASK_LATENCY_MS, tasks
 *    resubmitted as they end); the two windows of a round in alternating
 *    order. Target: with tasks at most 10% above idle.
 */

const settings = readSettings();
// 100: the whole run with BENCH_POSTGRES_URL stays near 6 minutes.
const TASKS = Math.round(positive('BENCH_TASKS', 100));
const PROJECTS = Math.round(positive('BENCH_TASK_PROJECTS', 20));
const SLOW_LATENCY_MS = Math.round(positive('BENCH_TASK_LATENCY_MS', 2000));
/** The tasks-alone reading; longer to profile what the tasks cost. */
const ALONE_S = positive('BENCH_TASK_ALONE_S', settings.durationS);
const CONCURRENCY = 4;
/** Requests in flight while submitting the tasks-per-second batch. */
const SUBMIT_PARALLEL = 8;
/**
 * Kept QUEUED or RUNNING beside the GETs: tasks started together end
 * together, and 4 queued ones take their place at once.
 */
const IN_FLIGHT = 2 * CONCURRENCY;
const TYPES: BenchTaskType[] = ['logo', 'marketing-copy'];
const CPU_TARGET_RATIO = 1.1;
/** Jobs the pg-boss reference runs before its measured batch. */
const REFERENCE_WARMUP_JOBS = 40;

const run = startBenchRun('workspace-bench-tasks-');
const log = (text: string) => console.log(text);
const fmt = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toFixed(digits) : '—';

interface ThroughputSample {
  type: BenchTaskType;
  tasks: number;
  succeeded: number;
  /** First createdAt to last finishedAt (server clock). */
  spanMs: number;
  tasksPerSecond: number;
  /** First to last createdAt: how long submitting took. */
  submitSpanMs: number;
  /** Server CPU from the first POST to the last task drained, per task. */
  serverCpuUsPerTask: number;
  /** createdAt → startedAt. */
  waitP50Ms: number;
  /** startedAt → finishedAt. */
  runP50Ms: number;
  runP99Ms: number;
  /**
   * Time the workers spent running tasks over what CONCURRENCY workers had
   * from the first start to the last finish: under 1, a worker sat idle
   * while tasks waited (fetch cadence, or tasks not yet submitted).
   */
  workersBusy: number;
  /**
   * CPU of every PostgreSQL process (server and backends, whoever they
   * serve: noisy on a shared machine) per task; undefined on SQLite.
   */
  postgresCpuUsPerTask?: number;
}

/** One batch of bench/ref-pg-boss.ts (see there). */
type ReferenceSample = Batch;

interface GetCpuRound {
  order: 'idle-first' | 'tasks-first';
  idle: TimedSample;
  withTasks: TimedSample;
  /** withTasks / idle CPU µs per request. */
  ratio: number;
  tasksSubmitted: number;
  running: { min: number; mean: number; samples: number };
  /**
   * Server CPU per second with the 4 tasks running and no GETs (one
   * BENCH_DURATION_S window right before the GET window): what the tasks
   * add, whatever the GET rate.
   */
  tasksAloneCpuMsPerSecond: number;
}

interface BackendResult {
  kind: Backend['kind'];
  throughput: ThroughputSample[];
  /** pg-boss alone, one batch per round, run between the service's. */
  reference: ReferenceSample[];
  /** Per task type, medians over rounds: the service beyond pg-boss alone. */
  overhead: Overhead[];
  getCpu: GetCpuRound[];
}

interface Overhead {
  type: BenchTaskType;
  serviceCpuUsPerTask: number;
  referenceCpuUsPerJob: number;
  /** Service minus reference, CPU µs per task. */
  overheadCpuUsPerTask: number;
  /** Service / reference CPU per task. */
  cpuRatio: number;
  serviceTasksPerSecond: number;
  referenceJobsPerSecond: number;
}

function taskEnv(): Record<string, string> {
  return {
    ...serviceEnv(settings.logLevel),
    TASK_CONCURRENCY: String(CONCURRENCY),
    // The caps would turn the batch into a 429 benchmark.
    TASK_MAX_QUEUED_PER_PROJECT: '10000',
    TASK_MAX_QUEUED_PER_USER: '100000',
    TEXT_API_KEY: 'bench-key',
    TEXT_API_CLIENT_CONCURRENCY: '256',
  };
}

/** Projects spread over users: one in every len/count of the seeded ids. */
function spread(ids: string[], count: number): string[] {
  const step = Math.max(1, Math.floor(ids.length / count));
  return Array.from({ length: count }, (_, i) => ids[i * step]);
}

async function measureThroughput(
  service: Service,
  probe: QueueProbe,
  projectIds: string[],
  type: BenchTaskType,
  count: number,
  postgres: boolean,
): Promise<ThroughputSample> {
  await waitUntilDrained(probe, 60_000);
  const postgresBefore = postgres ? cpuTimesByName('postgres') : undefined;
  const cpuBefore = cpuTimeUs(service.pid);
  const ids = new Set(
    await submitMany(service.baseUrl, projectIds, type, count, SUBMIT_PARALLEL),
  );
  await waitUntilDrained(probe, 600_000);
  const cpuUs = cpuTimeUs(service.pid) - cpuBefore;
  const postgresCpuUs = postgresBefore
    ? cpuSpent(postgresBefore, cpuTimesByName('postgres'))
    : undefined;
  const tasks = (await readTasks(service.baseUrl, projectIds)).filter((task) =>
    ids.has(task.id),
  );
  const time = (value: string | null) =>
    value === null ? NaN : Date.parse(value);
  const created = tasks.map((task) => time(task.createdAt));
  const finished = tasks.map((task) => time(task.finishedAt));
  const first = Math.min(...created);
  const spanMs = Math.max(...finished) - first;
  const runTimes = tasks.map(
    (task) => time(task.finishedAt) - time(task.startedAt),
  );
  const runs = summarize(runTimes);
  const workSpanMs =
    Math.max(...finished) -
    Math.min(...tasks.map((task) => time(task.startedAt)));
  return {
    type,
    tasks: tasks.length,
    succeeded: tasks.filter((task) => task.status === 'SUCCEEDED').length,
    spanMs,
    tasksPerSecond: tasks.length / (spanMs / 1000),
    submitSpanMs: Math.max(...created) - first,
    serverCpuUsPerTask: cpuUs / tasks.length,
    waitP50Ms: summarize(
      tasks.map((task) => time(task.startedAt) - time(task.createdAt)),
    ).p50Ms,
    runP50Ms: runs.p50Ms,
    runP99Ms: runs.p99Ms,
    workersBusy:
      runTimes.reduce((sum, ms) => sum + ms, 0) / (CONCURRENCY * workSpanMs),
    postgresCpuUsPerTask:
      postgresCpuUs === undefined ? undefined : postgresCpuUs / tasks.length,
  };
}

/** One batch of pg-boss alone, its own process on the server's core. */
async function measureReference(
  referenceUrl: string,
  count: number,
): Promise<ReferenceSample> {
  const output = await runScript(
    SERVER_CORE,
    join(__dirname, 'ref-pg-boss.ts'),
    [
      referenceUrl,
      String(REFERENCE_WARMUP_JOBS),
      String(count),
      String(SUBMIT_PARALLEL),
      String(PROJECTS),
    ],
    { ...process.env, ...taskEnv() },
  );
  return JSON.parse(output.trim().split('\n').pop() ?? '') as ReferenceSample;
}

function overheads(result: BackendResult): Overhead[] {
  return TYPES.map((type) => {
    const samples = result.throughput.filter((s) => s.type === type);
    const service = median(samples.map((s) => s.serverCpuUsPerTask));
    const reference = median(result.reference.map((s) => s.cpuUsPerJob));
    return {
      type,
      serviceCpuUsPerTask: service,
      referenceCpuUsPerJob: reference,
      overheadCpuUsPerTask: service - reference,
      cpuRatio: service / reference,
      serviceTasksPerSecond: median(samples.map((s) => s.tasksPerSecond)),
      referenceJobsPerSecond: median(
        result.reference.map((s) => s.jobsPerSecond),
      ),
    };
  });
}

async function measureGetCpu(
  load: LoadGenerator,
  service: Service,
  probe: QueueProbe,
  kind: Backend['kind'],
  idsFile: string,
  projectIds: string[],
  round: number,
): Promise<GetCpuRound> {
  const window = () =>
    measureTimed(
      load,
      service.pid,
      {
        type: 'timed',
        baseUrl: service.baseUrl,
        plan: { kind: 'get-by-id', idsFile },
        connections: settings.connections,
        warmupS: settings.warmupS,
        durationS: settings.durationS,
      },
      { postgres: kind === 'postgres', serverCore: SERVER_CORE },
    );
  const withTasks = async () => {
    const inFlight = keepInFlight(
      service.baseUrl,
      projectIds,
      'logo',
      IN_FLIGHT,
      probe,
    );
    const deadline = Date.now() + 30_000;
    while ((await probe.counts()).running < CONCURRENCY) {
      if (Date.now() > deadline) throw new Error('4 tasks never ran at once');
      await sleep(50);
    }
    inFlight.startSampling();
    const aloneBefore = cpuTimeUs(service.pid);
    const aloneStarted = Date.now();
    await sleep(ALONE_S * 1000);
    const tasksAloneCpuMsPerSecond =
      (cpuTimeUs(service.pid) - aloneBefore) / (Date.now() - aloneStarted);
    const sample = await window();
    const report = await inFlight.stop();
    await waitUntilDrained(probe, 60_000 + 3 * SLOW_LATENCY_MS);
    return { sample, report, tasksAloneCpuMsPerSecond };
  };
  const idleFirst = round % 2 === 1;
  let idle: TimedSample;
  let busy: Awaited<ReturnType<typeof withTasks>>;
  if (idleFirst) {
    idle = await window();
    busy = await withTasks();
  } else {
    busy = await withTasks();
    idle = await window();
  }
  const running = busy.report.runningSamples;
  return {
    order: idleFirst ? 'idle-first' : 'tasks-first',
    idle,
    withTasks: busy.sample,
    ratio: busy.sample.cpuUsPerRequest / idle.cpuUsPerRequest,
    tasksSubmitted: busy.report.submitted,
    running: {
      min: Math.min(...running),
      mean: running.reduce((a, b) => a + b, 0) / running.length,
      samples: running.length,
    },
    tasksAloneCpuMsPerSecond: busy.tasksAloneCpuMsPerSecond,
  };
}

async function benchBackend(
  backend: Backend,
  load: LoadGenerator,
  upstreams: { instant: string; slow: string; text: string },
  referenceUrl: string | undefined,
): Promise<BackendResult> {
  const tag = `[${backend.kind}]`;
  const started = Date.now();
  const db = await backend.seeded('tasks', MAIN_DATA);
  log(
    `${tag} seeded ${MAIN_DATA.projects} projects in ${fmt((Date.now() - started) / 1000, 1)} s`,
  );
  const idsFile = join(run.workDir, `ids-${backend.kind}.json`);
  writeFileSync(
    idsFile,
    JSON.stringify(
      [...db.ids].sort(() => Math.random() - 0.5).slice(0, ID_SAMPLE_SIZE),
    ),
  );
  const projectIds = spread(db.ids, PROJECTS);
  const probe = await queueProbe(db.url);
  const result: BackendResult = {
    kind: backend.kind,
    throughput: [],
    reference: [],
    overhead: [],
    getCpu: [],
  };
  try {
    // 1. Tasks per second, 0 ms upstreams.
    const fast = await startService({
      name: `${backend.kind}-tasks-instant`,
      databaseUrl: db.url,
      workDir: run.workDir,
      env: {
        ...taskEnv(),
        IMAGE_API_URL: upstreams.instant,
        TEXT_API_URL: upstreams.text,
      },
      nodeArgs: settings.serverNodeArgs,
    });
    try {
      // Warm-up: code paths compiled, pools and upstream connections open.
      for (const type of TYPES) {
        await measureThroughput(
          fast,
          probe,
          projectIds,
          type,
          40,
          backend.kind === 'postgres',
        );
      }
      for (let round = 1; round <= settings.rounds; round += 1) {
        for (const type of TYPES) {
          const sample = await measureThroughput(
            fast,
            probe,
            projectIds,
            type,
            TASKS,
            backend.kind === 'postgres',
          );
          result.throughput.push(sample);
          log(
            `${tag} [round ${round}/${settings.rounds}] ${type}: ${sample.succeeded}/${sample.tasks} succeeded, ` +
              `${fmt(sample.tasksPerSecond, 1)} tasks/s over ${fmt(sample.spanMs)} ms (submitted in ${fmt(sample.submitSpanMs)} ms), ` +
              `${fmt(sample.serverCpuUsPerTask)} µs server CPU/task, wait p50 ${fmt(sample.waitP50Ms)} ms, run p50 ${fmt(sample.runP50Ms)} ms, ` +
              `workers busy ${fmt(sample.workersBusy * 100)}%` +
              (sample.postgresCpuUsPerTask === undefined
                ? ''
                : `, ${fmt(sample.postgresCpuUsPerTask)} µs PostgreSQL CPU/task`),
          );
        }
        if (referenceUrl) {
          const ref = await measureReference(referenceUrl, TASKS);
          result.reference.push(ref);
          log(
            `${tag} [round ${round}/${settings.rounds}] pg-boss alone: ${fmt(ref.jobsPerSecond, 1)} jobs/s over ` +
              `${fmt(ref.spanMs)} ms (sent in ${fmt(ref.submitSpanMs)} ms), ${fmt(ref.cpuUsPerJob)} µs CPU/job, ` +
              `${fmt(ref.postgresCpuUsPerJob)} µs PostgreSQL CPU/job, wait p50 ${fmt(ref.waitP50Ms)} ms`,
          );
        }
      }
    } finally {
      await fast.stop();
    }

    // 2. GET by id CPU, idle vs beside 4 running tasks.
    const slow = await startService({
      name: `${backend.kind}-tasks-slow`,
      databaseUrl: db.url,
      workDir: run.workDir,
      env: {
        ...taskEnv(),
        IMAGE_API_URL: upstreams.slow,
        TEXT_API_URL: upstreams.text,
      },
      nodeArgs: settings.serverNodeArgs,
    });
    try {
      for (let round = 1; round <= settings.rounds; round += 1) {
        const sample = await measureGetCpu(
          load,
          slow,
          probe,
          backend.kind,
          idsFile,
          projectIds,
          round,
        );
        result.getCpu.push(sample);
        log(
          `${tag} [round ${round}/${settings.rounds}] GET by id (${sample.order}): idle ${fmt(sample.idle.cpuUsPerRequest)} µs/req ` +
            `(${fmt(sample.idle.perSecond)} req/s, core others ${fmt((sample.idle.coreOthersBusy ?? NaN) * 100)}%), ` +
            `with tasks ${fmt(sample.withTasks.cpuUsPerRequest)} µs/req (${fmt(sample.withTasks.perSecond)} req/s, ` +
            `core others ${fmt((sample.withTasks.coreOthersBusy ?? NaN) * 100)}%), ratio ${fmt(sample.ratio, 3)}; ` +
            `RUNNING min ${sample.running.min} mean ${fmt(sample.running.mean, 2)}, ${sample.tasksSubmitted} tasks submitted; ` +
            `tasks alone ${fmt(sample.tasksAloneCpuMsPerSecond, 1)} ms CPU/s`,
        );
      }
    } finally {
      await slow.stop();
    }
  } finally {
    await probe.close();
  }
  if (result.reference.length > 0) result.overhead = overheads(result);
  return result;
}

const spreadOf = (values: number[], digits: number) =>
  `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)})`;

function table(results: BackendResult[]): string {
  const lines = [
    '| database | measure | median (min–max over rounds) |',
    '|---|---|---|',
  ];
  for (const r of results) {
    for (const type of TYPES) {
      const samples = r.throughput.filter((s) => s.type === type);
      lines.push(
        `| ${r.kind} | ${type} tasks/s (${TASKS} tasks, 0 ms upstream) | ${spreadOf(
          samples.map((s) => s.tasksPerSecond),
          1,
        )} |`,
        `| ${r.kind} | ${type} server CPU µs per task | ${spreadOf(
          samples.map((s) => s.serverCpuUsPerTask),
          0,
        )} |`,
      );
      if (r.kind === 'postgres') {
        lines.push(
          `| ${r.kind} | ${type} PostgreSQL CPU µs per task | ${spreadOf(
            samples.map((s) => s.postgresCpuUsPerTask ?? NaN),
            0,
          )} |`,
        );
      }
    }
    if (r.reference.length > 0) {
      lines.push(
        `| ${r.kind} | pg-boss alone jobs/s (${TASKS} jobs, no-op handler) | ${spreadOf(
          r.reference.map((s) => s.jobsPerSecond),
          1,
        )} |`,
        `| ${r.kind} | pg-boss alone CPU µs per job | ${spreadOf(
          r.reference.map((s) => s.cpuUsPerJob),
          0,
        )} |`,
        `| ${r.kind} | pg-boss alone PostgreSQL CPU µs per job | ${spreadOf(
          r.reference.map((s) => s.postgresCpuUsPerJob),
          0,
        )} |`,
      );
      for (const o of r.overhead) {
        lines.push(
          `| ${r.kind} | ${o.type} overhead CPU µs per task (service − pg-boss alone, medians) | ` +
            `${fmt(o.overheadCpuUsPerTask)} (${fmt(o.cpuRatio, 1)}× pg-boss alone's CPU; tasks/s ${fmt(
              o.serviceTasksPerSecond / o.referenceJobsPerSecond,
              2,
            )}× its jobs/s) |`,
        );
      }
    }
    const idle = r.getCpu.map((s) => s.idle.cpuUsPerRequest);
    const busy = r.getCpu.map((s) => s.withTasks.cpuUsPerRequest);
    const ratios = r.getCpu.map((s) => s.ratio);
    lines.push(
      `| ${r.kind} | GET by id CPU µs/req, idle | ${spreadOf(idle, 0)} |`,
      `| ${r.kind} | GET by id CPU µs/req, 4 tasks running | ${spreadOf(busy, 0)} |`,
      `| ${r.kind} | server CPU ms/s, 4 tasks running, no GETs | ${spreadOf(
        r.getCpu.map((s) => s.tasksAloneCpuMsPerSecond),
        1,
      )} |`,
      `| ${r.kind} | ratio per round (≤ ${CPU_TARGET_RATIO}) | ${spreadOf(ratios, 3)} ${median(ratios) <= CPU_TARGET_RATIO ? 'pass' : '**FAIL**'} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const startedAt = new Date();
  pinSelf(LOAD_CORE);
  log(
    `bench tasks: ${settings.rounds} rounds; ${TASKS} tasks per batch over ${PROJECTS} projects; ` +
      `GET windows ${settings.warmupS} s + ${settings.durationS} s, ${settings.connections} connections; ` +
      `slow image API ${SLOW_LATENCY_MS} ms; temp ${run.workDir}`,
  );
  const instant = await startDevImageApi(0);
  const slow = await startDevImageApi(SLOW_LATENCY_MS);
  const text = await startDevTextApi(0);
  run.backends.push(await sqliteBackend(run.workDir));
  let referenceUrl: string | undefined;
  if (settings.postgresUrl) {
    const postgres: PostgresBackend = postgresBackend(
      settings.postgresUrl,
      run.workDir,
    );
    run.backends.push(postgres);
    // pg-boss alone's own database, kept for the whole run.
    referenceUrl = await postgres.empty('pgboss_ref');
  }
  const load = await LoadGenerator.start();
  const results: BackendResult[] = [];
  // bench/results/ is ignored by git: a fresh clone does not have it.
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(
    RESULTS_DIR,
    `${startedAt
      .toISOString()
      .replace(/:/g, '-')
      .replace(/\.\d+Z$/, 'Z')}-tasks.json`,
  );
  // Written after each database kind: a run stopped later keeps what it measured.
  const write = () =>
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          startedAt,
          finishedAt: new Date(),
          code: codeVersionOf(REPO_ROOT),
          machine: {
            cpus: cpus().length,
            cpuModel: cpus()[0]?.model,
            node: process.version,
            kernel: release(),
            pinned: hasTaskset(),
          },
          settings: {
            ...settings,
            only: undefined,
            tasks: TASKS,
            projects: PROJECTS,
            concurrency: CONCURRENCY,
            slowLatencyMs: SLOW_LATENCY_MS,
            tasksAloneS: ALONE_S,
            inFlight: IN_FLIGHT,
            submitParallel: SUBMIT_PARALLEL,
            referenceWarmupJobs: REFERENCE_WARMUP_JOBS,
          },
          results,
        },
        null,
        2,
      )}\n`,
    );
  for (const backend of run.backends) {
    results.push(
      await benchBackend(
        backend,
        load,
        {
          instant: instant.url,
          slow: slow.url,
          text: text.url,
        },
        referenceUrl,
      ),
    );
    write();
    log(table(results.slice(-1)));
  }
  await load.stop();
  const report = table(results);
  log(`\n${report}\nwrote ${file}`);
}

main()
  .catch((error: unknown) => {
    if (run.interrupted) return;
    console.error(
      'bench failed:',
      error instanceof Error ? error.stack : error,
    );
    process.exitCode = 1;
  })
  .finally(() => run.cleanup());
