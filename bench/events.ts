import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, release } from 'node:os';
import { join } from 'node:path';
import { codeVersionOf, startBenchRun } from './bench-run';
import { postgresBackend, sqliteBackend, type Backend } from './databases';
import {
  lagBetween,
  scrapeEventMetrics,
  type LagWindow,
} from './event-metrics';
import { POD_HEAP_FLAGS } from './pod-heap';
import { cpuTimeUs, MB, rssBytes, waitForIdle, watchRss } from './proc-stats';
import { hasTaskset, pinSelf, sleep } from './processes';
import { startService, type Service } from './service';
import {
  LOAD_CORE,
  positive,
  readSettings,
  REPO_ROOT,
  RESULTS_DIR,
} from './settings';
import { SseClient } from './sse-client';
import { serviceEnv } from './stage';

/**
 * `npm run bench:events`: what live-change streams cost one instance,
 * started as in production with the pod's heap flags, on SQLite and (with
 * BENCH_POSTGRES_URL) PostgreSQL.
 *
 * 1. Idle streams: BENCH_EVENT_IDLE_STREAMS (1,000) streams of
 *    GET /api/events held open with nothing happening; the server's RSS
 *    (/proc) before, with them open and settled, and after they closed.
 *    Target: growth at most 64 MB.
 * 2. Events per second: BENCH_EVENT_STREAMS (100) streams of every event,
 *    and PATCHes of BENCH_EVENT_PROJECTS projects at each rate of
 *    BENCH_EVENT_RATES writes/s for BENCH_EVENT_DURATION_S seconds, each
 *    rate also without streams; the server's CPU (/proc) per write and, from
 *    the difference, per event delivered to one stream; the delivery lag
 *    inside the server (/metrics, commit -> read) and at the clients
 *    (commit -> parsed here).
 * 3. Paced replay: BENCH_EVENT_REPLAY_STREAMS (3) streams of one client
 *    resume BENCH_EVENT_REPLAY_EVENTS (1,000) events each with
 *    Last-Event-ID, the service at EVENTS_REPLAY_RATE =
 *    BENCH_EVENT_REPLAY_RATE (1,500); the time until every stream has them
 *    all. Target: no sooner than the rate allows past its one-second burst
 *    ((streams x events - rate) / rate seconds), the replays still whole.
 */

const settings = readSettings();
const IDLE_STREAMS = Math.round(positive('BENCH_EVENT_IDLE_STREAMS', 1_000));
const STREAMS = Math.round(positive('BENCH_EVENT_STREAMS', 100));
const DURATION_S = positive('BENCH_EVENT_DURATION_S', 10);
const PROJECTS = Math.round(positive('BENCH_EVENT_PROJECTS', 20));
const RATES = (process.env.BENCH_EVENT_RATES ?? '10,100')
  .split(',')
  .map((rate) => Math.round(Number(rate)))
  .filter((rate) => rate > 0);
const REPLAY_STREAMS = Math.round(positive('BENCH_EVENT_REPLAY_STREAMS', 3));
const REPLAY_EVENTS = Math.round(positive('BENCH_EVENT_REPLAY_EVENTS', 1_000));
const REPLAY_RATE = Math.round(positive('BENCH_EVENT_REPLAY_RATE', 1_500));
/** The owner of the replayed project: its streams are one client's. */
const REPLAY_USER = 'bench-replay';
const RSS_TARGET_MB = 64;
/** Streams opened at once while building up the idle thousand. */
const OPEN_PARALLEL = 50;
/** Time for the server to settle (collect garbage) before RSS is read. */
const SETTLE_MS = 5_000;

const run = startBenchRun('workspace-bench-events-');
const log = (text: string) => console.log(text);
const fmt = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toFixed(digits) : '—';

interface IdleResult {
  streams: number;
  rssBeforeMb: number;
  rssOpenMb: number;
  rssPeakMb: number;
  rssClosedMb: number;
  growthMb: number;
  growthPerStreamKb: number;
  /** Server CPU to open one stream (limits, subscribe, first write). */
  openCpuUs: number;
}

interface RateResult {
  rate: number;
  streams: number;
  writes: number;
  failedWrites: number;
  /** Events each stream received (all of them, or the run says so). */
  eventsPerStream: number;
  missing: number;
  serverCpuMs: number;
  cpuUsPerWrite: number;
  serverLag: LagWindow;
  clientLagP50Ms: number;
  clientLagP99Ms: number;
  clientLagMaxMs: number;
}

interface RatePair {
  rate: number;
  withoutStreams: RateResult;
  withStreams: RateResult;
  /** (CPU with streams - without) / events delivered to streams. */
  cpuUsPerDeliveredEvent: number;
}

interface ReplayResult {
  streams: number;
  eventsPerStream: number;
  rate: number;
  /** Open -> every stream has every event, ms. */
  elapsedMs: number;
  /** The soonest the rate allows past its burst, ms. */
  floorMs: number;
  /** Events fewer than expected, over all streams. */
  missing: number;
  /** From /metrics: events held back, and the waits the server counted. */
  pacedEvents: number;
  pacedSeconds: number;
}

interface BackendResult {
  kind: Backend['kind'];
  idle: IdleResult;
  rates: RatePair[];
  replay: ReplayResult;
}

function eventsUrl(service: Service): string {
  return `${service.baseUrl}/api/events`;
}

async function openStreams(
  service: Service,
  count: number,
): Promise<SseClient[]> {
  const clients: SseClient[] = [];
  while (clients.length < count) {
    const batch = Math.min(OPEN_PARALLEL, count - clients.length);
    clients.push(
      ...(await Promise.all(
        Array.from({ length: batch }, () => SseClient.open(eventsUrl(service))),
      )),
    );
  }
  return clients;
}

async function untilOpen(service: Service, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await scrapeEventMetrics(service.baseUrl)).streamsOpen !== count) {
    if (Date.now() > deadline) {
      throw new Error(`event_streams_open did not reach ${count}`);
    }
    await sleep(100);
  }
}

async function idleStreams(service: Service): Promise<IdleResult> {
  await waitForIdle(service.pid);
  await sleep(SETTLE_MS);
  const rssBefore = rssBytes(service.pid);
  const watch = watchRss(service.pid, 50);
  const cpuBefore = cpuTimeUs(service.pid);
  const clients = await openStreams(service, IDLE_STREAMS);
  await untilOpen(service, IDLE_STREAMS);
  const openCpuUs = (cpuTimeUs(service.pid) - cpuBefore) / IDLE_STREAMS;
  await sleep(SETTLE_MS);
  await waitForIdle(service.pid);
  const rssOpen = rssBytes(service.pid);
  const { peak } = watch.stop();
  for (const client of clients) client.close();
  await untilOpen(service, 0);
  await sleep(SETTLE_MS);
  const rssClosed = rssBytes(service.pid);
  return {
    streams: IDLE_STREAMS,
    rssBeforeMb: rssBefore / MB,
    rssOpenMb: rssOpen / MB,
    rssPeakMb: peak / MB,
    rssClosedMb: rssClosed / MB,
    growthMb: (rssOpen - rssBefore) / MB,
    growthPerStreamKb: (rssOpen - rssBefore) / 1024 / IDLE_STREAMS,
    openCpuUs,
  };
}

async function createProjects(service: Service): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < PROJECTS; i++) {
    const response = await fetch(`${service.baseUrl}/api/projects`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `Events ${i}`, userId: `user-${i % 5}` }),
    });
    if (response.status !== 201) {
      throw new Error(`POST /api/projects answered ${response.status}`);
    }
    ids.push(
      ((await response.json()) as { project: { id: string } }).project.id,
    );
  }
  return ids;
}

/** PATCHes at `rate` per second for DURATION_S, open loop (not waiting). */
async function writeAt(
  service: Service,
  projectIds: string[],
  rate: number,
): Promise<{ writes: number; failed: number }> {
  const total = Math.round(rate * DURATION_S);
  const started = Date.now();
  const pending: Promise<boolean>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    const id = projectIds[i % projectIds.length];
    pending.push(
      fetch(`${service.baseUrl}/api/projects/${id}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `Events ${id.slice(-6)} ${i}` }),
      })
        .then(async (response) => {
          await response.arrayBuffer();
          return response.status === 200;
        })
        .catch(() => false),
    );
  }
  const answers = await Promise.all(pending);
  return { writes: total, failed: answers.filter((ok) => !ok).length };
}

async function patchProject(
  service: Service,
  projectId: string,
  name: string,
): Promise<void> {
  const response = await fetch(`${service.baseUrl}/api/projects/${projectId}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) {
    throw new Error(
      `PATCH /api/projects/${projectId} answered ${response.status}`,
    );
  }
}

/** A counter's value in /metrics (0 when absent). */
async function counter(service: Service, name: string): Promise<number> {
  const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
  const found = new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text);
  return found ? Number(found[1]) : 0;
}

async function pacedReplay(service: Service): Promise<ReplayResult> {
  const response = await fetch(`${service.baseUrl}/api/projects`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Replayed', userId: REPLAY_USER }),
  });
  if (response.status !== 201) {
    throw new Error(`POST /api/projects answered ${response.status}`);
  }
  const projectId = ((await response.json()) as { project: { id: string } })
    .project.id;
  const url = `${eventsUrl(service)}?userId=${REPLAY_USER}`;
  // The cursor the streams resume from: the last event before the log.
  const first = await SseClient.open(url);
  await patchProject(service, projectId, 'Replayed start');
  await first.received(1);
  const cursor = String(first.ids.at(-1));
  first.close();
  for (let done = 0; done < REPLAY_EVENTS; done += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, REPLAY_EVENTS - done) }, (_, i) =>
        patchProject(service, projectId, `Replayed ${done + i}`),
      ),
    );
  }
  await untilOpen(service, 0);
  await waitForIdle(service.pid);
  const pacedEventsBefore = await counter(
    service,
    'event_stream_replay_paced_events_total',
  );
  const pacedSecondsBefore = await counter(
    service,
    'event_stream_replay_paced_seconds_total',
  );
  const started = Date.now();
  const clients = await Promise.all(
    Array.from({ length: REPLAY_STREAMS }, () =>
      SseClient.open(url, { 'Last-Event-ID': cursor }),
    ),
  );
  await Promise.race([
    Promise.all(clients.map((client) => client.received(REPLAY_EVENTS))),
    sleep(60_000),
  ]);
  const elapsedMs = Date.now() - started;
  const counts = clients.map((client) => client.ids.length);
  for (const client of clients) client.close();
  await untilOpen(service, 0);
  return {
    streams: REPLAY_STREAMS,
    eventsPerStream: REPLAY_EVENTS,
    rate: REPLAY_RATE,
    elapsedMs,
    floorMs: Math.max(
      0,
      ((REPLAY_STREAMS * REPLAY_EVENTS - REPLAY_RATE) * 1000) / REPLAY_RATE,
    ),
    missing: counts.reduce(
      (sum, count) => sum + Math.max(0, REPLAY_EVENTS - count),
      0,
    ),
    pacedEvents:
      (await counter(service, 'event_stream_replay_paced_events_total')) -
      pacedEventsBefore,
    pacedSeconds:
      (await counter(service, 'event_stream_replay_paced_seconds_total')) -
      pacedSecondsBefore,
  };
}

/** Paced as the rate says: not sooner than its floor (a timer may fire 10 ms early), and whole. */
const replayPasses = (replay: ReplayResult) =>
  replay.elapsedMs >= replay.floorMs - 10 && replay.missing === 0;

function percentileOf(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

async function atRate(
  service: Service,
  projectIds: string[],
  rate: number,
  streams: number,
): Promise<RateResult> {
  const clients = await openStreams(service, streams);
  await untilOpen(service, streams);
  await waitForIdle(service.pid);
  const before = await scrapeEventMetrics(service.baseUrl);
  const cpuBefore = cpuTimeUs(service.pid);
  const { writes, failed } = await writeAt(service, projectIds, rate);
  const after = await scrapeEventMetrics(service.baseUrl);
  // Each answered PATCH recorded one event: every stream gets them all.
  await Promise.race([
    Promise.all(clients.map((client) => client.received(writes - failed))),
    sleep(10_000),
  ]);
  const serverCpuUs = cpuTimeUs(service.pid) - cpuBefore;
  const counts = clients.map((client) => client.ids.length);
  const lags = clients.flatMap((client) => client.lagsMs);
  for (const client of clients) client.close();
  await untilOpen(service, 0);
  return {
    rate,
    streams,
    writes,
    failedWrites: failed,
    eventsPerStream: Math.max(0, ...counts),
    missing: counts.reduce(
      (sum, count) => sum + Math.max(0, writes - failed - count),
      0,
    ),
    serverCpuMs: serverCpuUs / 1000,
    cpuUsPerWrite: serverCpuUs / Math.max(1, writes - failed),
    serverLag: lagBetween(before, after),
    clientLagP50Ms: percentileOf(lags, 0.5),
    clientLagP99Ms: percentileOf(lags, 0.99),
    clientLagMaxMs: lags.length > 0 ? Math.max(...lags) : NaN,
  };
}

async function benchBackend(backend: Backend): Promise<BackendResult> {
  const tag = `[${backend.kind}]`;
  const db = await backend.seeded('events', { projects: 0, users: 0 });
  const service = await startService({
    name: `${backend.kind}-events`,
    databaseUrl: db.url,
    workDir: run.workDir,
    env: {
      ...serviceEnv(settings.logLevel),
      // Every stream of the bench comes from 127.0.0.1: one client key.
      EVENTS_CLIENT_LIMIT: '10000',
      // ... and one address of one /24: the caps on unscoped streams
      // without a proven caller would refuse all but the first two.
      EVENTS_UNSCOPED_ADDRESS_LIMIT: '10000',
      EVENTS_UNSCOPED_NETWORK_LIMIT: '10000',
      EVENTS_REPLAY_RATE: String(REPLAY_RATE),
    },
    nodeArgs: [...POD_HEAP_FLAGS, ...settings.serverNodeArgs],
  });
  try {
    const projectIds = await createProjects(service);
    // Warm-up: the stream and write paths compiled before anything is read.
    await atRate(service, projectIds, 20, 10);
    const idle = await idleStreams(service);
    log(
      `${tag} ${idle.streams} idle streams: RSS ${fmt(idle.rssBeforeMb)} -> ${fmt(idle.rssOpenMb)} MB (+${fmt(idle.growthMb, 1)} MB, ${fmt(idle.growthPerStreamKb, 1)} KB/stream; peak ${fmt(idle.rssPeakMb)} MB; ${fmt(idle.rssClosedMb)} MB after closing)`,
    );
    const rates: RatePair[] = [];
    for (const rate of RATES) {
      const withoutStreams = await atRate(service, projectIds, rate, 0);
      const withStreams = await atRate(service, projectIds, rate, STREAMS);
      const delivered = withStreams.eventsPerStream * STREAMS;
      const pair: RatePair = {
        rate,
        withoutStreams,
        withStreams,
        cpuUsPerDeliveredEvent:
          ((withStreams.serverCpuMs - withoutStreams.serverCpuMs) * 1000) /
          Math.max(1, delivered),
      };
      rates.push(pair);
      log(
        `${tag} ${rate} writes/s x ${STREAMS} streams: ${fmt(withStreams.cpuUsPerWrite)} µs CPU per write (${fmt(withoutStreams.cpuUsPerWrite)} without streams), ${fmt(pair.cpuUsPerDeliveredEvent, 1)} µs per delivered event; server lag mean ${fmt(withStreams.serverLag.meanMs, 1)} ms, p99 <= ${fmt(withStreams.serverLag.p99AtMostMs)} ms; client lag p50 ${fmt(withStreams.clientLagP50Ms)} / p99 ${fmt(withStreams.clientLagP99Ms)} / max ${fmt(withStreams.clientLagMaxMs)} ms; ${withStreams.missing} missing`,
      );
    }
    const replay = await pacedReplay(service);
    log(
      `${tag} paced replay, ${replay.streams} streams x ${replay.eventsPerStream} events at ${replay.rate}/s: all delivered in ${fmt(replay.elapsedMs)} ms (floor ${fmt(replay.floorMs)} ms) ${replayPasses(replay) ? 'pass' : 'FAIL'}; ${replay.pacedEvents} events held back, ${fmt(replay.pacedSeconds, 2)} s waited (server); ${replay.missing} missing`,
    );
    return { kind: backend.kind, idle, rates, replay };
  } finally {
    await service.stop();
  }
}

function table(results: BackendResult[]): string {
  const lines = ['| database | measure | value |', '| --- | --- | --- |'];
  for (const r of results) {
    const idle = r.idle;
    lines.push(
      `| ${r.kind} | ${idle.streams} idle streams: RSS growth (≤ ${RSS_TARGET_MB} MB) | ${fmt(idle.growthMb, 1)} MB (${fmt(idle.rssBeforeMb)} → ${fmt(idle.rssOpenMb)} MB, ${fmt(idle.growthPerStreamKb, 1)} KB per stream) ${idle.growthMb <= RSS_TARGET_MB ? 'pass' : '**FAIL**'} |`,
      `| ${r.kind} | server CPU to open a stream | ${fmt(idle.openCpuUs)} µs |`,
    );
    for (const pair of r.rates) {
      const w = pair.withStreams;
      lines.push(
        `| ${r.kind} | ${pair.rate} writes/s, ${w.streams} streams: CPU per write | ${fmt(w.cpuUsPerWrite)} µs (${fmt(pair.withoutStreams.cpuUsPerWrite)} µs without streams) |`,
        `| ${r.kind} | ${pair.rate} writes/s: CPU per event delivered to one stream | ${fmt(pair.cpuUsPerDeliveredEvent, 1)} µs |`,
        `| ${r.kind} | ${pair.rate} writes/s: lag commit → feed (server, /metrics) | mean ${fmt(w.serverLag.meanMs, 1)} ms, p99 ≤ ${fmt(w.serverLag.p99AtMostMs)} ms, max ≤ ${fmt(w.serverLag.maxAtMostMs)} ms |`,
        `| ${r.kind} | ${pair.rate} writes/s: lag commit → client | p50 ${fmt(w.clientLagP50Ms)} ms, p99 ${fmt(w.clientLagP99Ms)} ms, max ${fmt(w.clientLagMaxMs)} ms; ${w.eventsPerStream} events per stream, ${w.missing} missing, ${w.failedWrites} failed writes |`,
      );
    }
    const replay = r.replay;
    lines.push(
      `| ${r.kind} | paced replay: ${replay.streams} streams x ${replay.eventsPerStream} events at ${replay.rate}/s, open → all delivered (≥ ${fmt(replay.floorMs)} ms) | ${fmt(replay.elapsedMs)} ms; ${replay.pacedEvents} held back, ${fmt(replay.pacedSeconds, 2)} s waited (server); ${replay.missing} missing ${replayPasses(replay) ? 'pass' : '**FAIL**'} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const startedAt = new Date();
  // Read now: the build measured is the tree at the start of the run.
  const code = codeVersionOf(REPO_ROOT);
  pinSelf(LOAD_CORE);
  log(
    `bench events: ${IDLE_STREAMS} idle streams; ${STREAMS} streams at ${RATES.join(', ')} writes/s for ${DURATION_S} s over ${PROJECTS} projects; paced replay ${REPLAY_STREAMS} x ${REPLAY_EVENTS} events at ${REPLAY_RATE}/s; temp ${run.workDir}`,
  );
  run.backends.push(await sqliteBackend(run.workDir));
  if (settings.postgresUrl) {
    run.backends.push(postgresBackend(settings.postgresUrl, run.workDir));
  }
  const results: BackendResult[] = [];
  // bench/results/ is ignored by git: a fresh clone does not have it.
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(
    RESULTS_DIR,
    `${startedAt
      .toISOString()
      .replace(/:/g, '-')
      .replace(/\.\d+Z$/, 'Z')}-events.json`,
  );
  // Written after each database kind: a run stopped later keeps what it measured.
  const write = () =>
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          startedAt,
          finishedAt: new Date(),
          code,
          machine: {
            cpus: cpus().length,
            cpuModel: cpus()[0]?.model,
            node: process.version,
            kernel: release(),
            pinned: hasTaskset(),
          },
          settings: {
            idleStreams: IDLE_STREAMS,
            streams: STREAMS,
            durationS: DURATION_S,
            projects: PROJECTS,
            rates: RATES,
            replay: {
              streams: REPLAY_STREAMS,
              events: REPLAY_EVENTS,
              rate: REPLAY_RATE,
            },
            serverNodeArgs: [...POD_HEAP_FLAGS, ...settings.serverNodeArgs],
          },
          results,
        },
        null,
        2,
      )}\n`,
    );
  for (const backend of run.backends) {
    results.push(await benchBackend(backend));
    write();
  }
  log(`\n${table(results)}\nwrote ${file}`);
}

main()
  .catch((error: unknown) => {
    if (!run.interrupted) {
      console.error(error);
      process.exitCode = 1;
    }
  })
  .finally(() => run.cleanup());
