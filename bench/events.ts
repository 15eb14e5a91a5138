import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, release } from 'node:os';
import { join } from 'node:path';
import { codeVersionOf, startBenchRun } from './bench-run';
import { postgresBackend, sqliteBackend, type Backend } from './databases';
import {
  fmt,
  idleTable,
  rateTable,
  replayPasses,
  replayTable,
  type IdleResult,
  type RatePair,
  type RateResult,
  type ReplayResult,
  type TargetResult,
} from './event-report';
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
import {
  serviceTarget,
  startReference,
  type ReferenceServer,
  type StreamTarget,
} from './stream-targets';

/**
 * `npm run bench:events`: what live-change streams cost one instance,
 * started as in production with the pod's heap flags, on SQLite and (with
 * BENCH_POSTGRES_URL) PostgreSQL, each figure beside the same measurement
 * of a bare node:http SSE server (ref-sse-server.ts, same core, same heap
 * flags, frames of the same size).
 *
 * 1. Idle streams: BENCH_EVENT_IDLE_STREAMS (10,000) streams of
 *    GET /api/events held open with nothing happening; the server's RSS
 *    (/proc) before, with them open and settled, and after they closed.
 *    Target: growth at most 64 KB per stream (64 MB per 1,000).
 * 2. Events per second: BENCH_EVENT_STREAMS (1,000) streams of every event,
 *    and PATCHes of BENCH_EVENT_PROJECTS projects (the reference: POSTs of
 *    an event) at each rate of BENCH_EVENT_RATES writes/s for
 *    BENCH_EVENT_DURATION_S seconds, each rate also without streams; the
 *    server's CPU (/proc) per write and, from the difference, per event
 *    delivered to one stream; the server's own delay figure (service:
 *    commit -> feed, /metrics; reference: publish -> all written) and the
 *    delivery lag at the clients (commit -> parsed here).
 * 3. Paced replay (service only): BENCH_EVENT_REPLAY_STREAMS (3) streams of
 *    one client resume BENCH_EVENT_REPLAY_EVENTS (1,000) events each with
 *    Last-Event-ID, the service at EVENTS_REPLAY_RATE =
 *    BENCH_EVENT_REPLAY_RATE (1,500); the time until every stream has them
 *    all. Target: no sooner than the rate allows past its one-second burst
 *    ((streams x events - rate) / rate seconds), the replays still whole.
 */

const settings = readSettings();
const IDLE_STREAMS = Math.round(positive('BENCH_EVENT_IDLE_STREAMS', 10_000));
const STREAMS = Math.round(positive('BENCH_EVENT_STREAMS', 1_000));
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
/** Streams opened at once (one batch) while building up the idle streams. */
const OPEN_PARALLEL = Math.round(positive('BENCH_EVENT_OPEN_PARALLEL', 100));
/**
 * What the service must allow for the bench's streams, all from 127.0.0.1
 * (one client key, one address, one network): its per-client and unscoped
 * caps at their maximum, and the instance's above the most held at once.
 */
const SERVICE_STREAM_LIMITS = {
  EVENTS_CLIENT_LIMIT: '10000',
  EVENTS_UNSCOPED_ADDRESS_LIMIT: '10000',
  EVENTS_UNSCOPED_NETWORK_LIMIT: '1000000',
  EVENTS_INSTANCE_LIMIT: String(Math.max(IDLE_STREAMS, STREAMS) + 100),
};
/** Time for the server to settle (collect garbage) before RSS is read. */
const SETTLE_MS = 5_000;

const run = startBenchRun('workspace-bench-events-');
const log = (text: string) => console.log(text);

/** Opens `count` streams, OPEN_PARALLEL at a time, into `into`. */
async function openStreams(
  target: StreamTarget,
  count: number,
  into: SseClient[] = [],
): Promise<SseClient[]> {
  const goal = into.length + count;
  while (into.length < goal) {
    const batch = Math.min(OPEN_PARALLEL, goal - into.length);
    const opened = await Promise.allSettled(
      Array.from({ length: batch }, () => SseClient.open(target.streamsUrl)),
    );
    // Every stream that did open is the caller's to close, even when
    // another of the batch was refused.
    for (const result of opened) {
      if (result.status === 'fulfilled') into.push(result.value);
    }
    const refused = opened.find((result) => result.status === 'rejected');
    if (refused) throw refused.reason;
  }
  return into;
}

async function untilOpen(target: StreamTarget, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await target.streamsOpen()) !== count) {
    if (Date.now() > deadline) {
      throw new Error(`${target.label}: streams open did not reach ${count}`);
    }
    await sleep(100);
  }
}

async function idleStreams(target: StreamTarget): Promise<IdleResult> {
  const { pid } = target;
  await waitForIdle(pid);
  await sleep(SETTLE_MS);
  const rssBefore = rssBytes(pid);
  const watch = watchRss(pid, 50);
  const cpuBefore = cpuTimeUs(pid);
  const started = Date.now();
  const clients: SseClient[] = [];
  try {
    await openStreams(target, IDLE_STREAMS, clients);
    await untilOpen(target, IDLE_STREAMS);
  } catch (error) {
    // A dying process resets its connections a moment before it is gone.
    for (let i = 0; i < 50 && target.failure() === undefined; i++) {
      await sleep(100);
    }
    // A live service that answers 503 refuses what its heap would not
    // hold (src/events/stream-heap-cap.ts): what it held, then on.
    const refused =
      target.failure() === undefined &&
      error instanceof Error &&
      /answered 503/.test(error.message);
    const reason = refused
      ? "503 past the streams the instance's heap holds"
      : target.failure();
    if (reason === undefined) throw error;
    // The server died (or refused) holding them: what it held, and why.
    const peak = watch.peakSoFar();
    try {
      // Its timer would keep the bench from exiting.
      watch.stop();
    } catch {
      // The process is gone: the samples read so far stand.
    }
    for (const client of clients) client.close();
    if (refused) await untilOpen(target, 0);
    return {
      streams: IDLE_STREAMS,
      openMs: Date.now() - started,
      rssBeforeMb: rssBefore / MB,
      rssOpenMb: peak / MB,
      rssPeakMb: peak / MB,
      rssClosedMb: NaN,
      growthMb: (peak - rssBefore) / MB,
      growthPerStreamKb:
        (peak - rssBefore) / 1024 / Math.max(1, clients.length),
      openCpuUs: NaN,
      failure: { reason, streamsHeld: clients.length, refused },
    };
  }
  const openMs = Date.now() - started;
  const openCpuUs = (cpuTimeUs(pid) - cpuBefore) / IDLE_STREAMS;
  await sleep(SETTLE_MS);
  await waitForIdle(pid);
  const rssOpen = rssBytes(pid);
  const { peak } = watch.stop();
  for (const client of clients) client.close();
  await untilOpen(target, 0);
  await sleep(SETTLE_MS);
  const rssClosed = rssBytes(pid);
  return {
    streams: IDLE_STREAMS,
    openMs,
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

/** Writes at `rate` per second for DURATION_S, open loop (not waiting). */
async function writeAt(
  target: StreamTarget,
  rate: number,
): Promise<{ writes: number; failed: number }> {
  const total = Math.round(rate * DURATION_S);
  const started = Date.now();
  const pending: Promise<boolean>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    pending.push(target.write(i));
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

async function pacedReplay(
  service: Service,
  target: StreamTarget,
): Promise<ReplayResult> {
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
  const url = `${target.streamsUrl}?userId=${REPLAY_USER}`;
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
  await untilOpen(target, 0);
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
  await untilOpen(target, 0);
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

function percentileOf(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** The largest value (Math.max(...values) overflows the stack past ~100k). */
const maxOf = (values: number[]) =>
  values.reduce((max, value) => (value > max ? value : max), -Infinity);

async function atRate(
  target: StreamTarget,
  rate: number,
  streams: number,
): Promise<RateResult> {
  const clients = await openStreams(target, streams);
  await untilOpen(target, streams);
  await waitForIdle(target.pid);
  const mark = await target.lagMark();
  const cpuBefore = cpuTimeUs(target.pid);
  const clientCpuBefore = process.cpuUsage();
  const started = Date.now();
  const { writes, failed } = await writeAt(target, rate);
  const serverLag = await target.lagSince(mark);
  // Each answered write made one event: every stream gets them all.
  await Promise.race([
    Promise.all(clients.map((client) => client.received(writes - failed))),
    sleep(10_000),
  ]);
  const serverCpuUs = cpuTimeUs(target.pid) - cpuBefore;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const elapsedUs = (Date.now() - started) * 1000;
  const rss = rssBytes(target.pid);
  const counts = clients.map((client) => client.ids.length);
  const received = counts.reduce((sum, count) => sum + count, 0);
  const bytes = clients.reduce((sum, client) => sum + client.eventBytes, 0);
  const lags = clients.flatMap((client) => client.lagsMs);
  for (const client of clients) client.close();
  await untilOpen(target, 0);
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
    frameBytes: received > 0 ? bytes / received : NaN,
    serverCpuMs: serverCpuUs / 1000,
    cpuUsPerWrite: serverCpuUs / Math.max(1, writes - failed),
    serverLag,
    clientLagP50Ms: percentileOf(lags, 0.5),
    clientLagP99Ms: percentileOf(lags, 0.99),
    clientLagMaxMs: lags.length > 0 ? maxOf(lags) : NaN,
    clientCpuPercent: ((clientCpu.user + clientCpu.system) / elapsedUs) * 100,
    rssMb: rss / MB,
  };
}

/** Every rate, without streams and with STREAMS of them. */
async function rates(target: StreamTarget): Promise<RatePair[]> {
  const tag = `[${target.label}]`;
  const pairs: RatePair[] = [];
  for (const rate of RATES) {
    const withoutStreams = await atRate(target, rate, 0);
    const withStreams = await atRate(target, rate, STREAMS);
    const delivered = withStreams.eventsPerStream * STREAMS;
    const pair: RatePair = {
      rate,
      withoutStreams,
      withStreams,
      cpuUsPerDeliveredEvent:
        ((withStreams.serverCpuMs - withoutStreams.serverCpuMs) * 1000) /
        Math.max(1, delivered),
    };
    pairs.push(pair);
    const lag = withStreams.serverLag;
    log(
      `${tag} ${rate} writes/s x ${STREAMS} streams: ${fmt(withStreams.cpuUsPerWrite)} µs CPU per write (${fmt(withoutStreams.cpuUsPerWrite)} without streams), ${fmt(pair.cpuUsPerDeliveredEvent, 1)} µs per delivered event; server ${lag.what} mean ${fmt(lag.meanMs, 2)} ms, p99 ${lag.bounded ? '<= ' : ''}${fmt(lag.p99Ms, 2)} ms; client lag p50 ${fmt(withStreams.clientLagP50Ms)} / p99 ${fmt(withStreams.clientLagP99Ms)} / max ${fmt(withStreams.clientLagMaxMs)} ms; ${withStreams.missing} missing, ${withStreams.failedWrites} failed writes; ${fmt(withStreams.frameBytes)} B per frame; client CPU ${fmt(withStreams.clientCpuPercent)}%`,
    );
  }
  return pairs;
}

/**
 * Idle streams, then the rates: what the service and the reference both
 * run. `restart`: a fresh process when the idle streams killed this one.
 */
async function streamsOf(
  first: StreamTarget,
  restart: () => Promise<StreamTarget>,
): Promise<{ idle: IdleResult; rates: RatePair[]; target: StreamTarget }> {
  // Warm-up: the stream and write paths compiled before anything is read.
  await atRate(first, 20, 10);
  const idle = await idleStreams(first);
  const tag = `[${first.label}]`;
  if (idle.failure) {
    log(
      `${tag} ${idle.streams} idle streams: FAILED after ${idle.failure.streamsHeld} streams (${fmt(idle.openMs / 1000, 1)} s): ${idle.failure.reason}; RSS ${fmt(idle.rssBeforeMb)} MB before, last read ${fmt(idle.rssPeakMb)} MB (${fmt(idle.growthPerStreamKb, 1)} KB per stream held)${idle.failure.refused ? '' : '; restarting it for the rates'}`,
    );
  } else {
    log(
      `${tag} ${idle.streams} idle streams (opened in ${fmt(idle.openMs / 1000, 1)} s): RSS ${fmt(idle.rssBeforeMb)} -> ${fmt(idle.rssOpenMb)} MB (+${fmt(idle.growthMb, 1)} MB, ${fmt(idle.growthPerStreamKb, 1)} KB/stream; peak ${fmt(idle.rssPeakMb)} MB; ${fmt(idle.rssClosedMb)} MB after closing); ${fmt(idle.openCpuUs)} µs CPU to open one`,
    );
  }
  const died = idle.failure !== undefined && !idle.failure.refused;
  const target = died ? await restart() : first;
  if (died) await atRate(target, 20, 10);
  return { idle, rates: await rates(target), target };
}

/** An event the service sent, for the reference to repeat. */
async function sampleEvent(target: StreamTarget): Promise<string> {
  const [client] = await openStreams(target, 1);
  await target.write(0);
  await client.received(1);
  client.close();
  await untilOpen(target, 0);
  return client.lastData as string;
}

async function benchBackend(
  backend: Backend,
): Promise<{ result: TargetResult; event: string }> {
  const db = await backend.seeded('events', { projects: 0, users: 0 });
  const services: Service[] = [];
  const start = async () => {
    const service = await startService({
      name: `${backend.kind}-events-${services.length + 1}`,
      databaseUrl: db.url,
      workDir: run.workDir,
      env: {
        ...serviceEnv(settings.logLevel),
        ...SERVICE_STREAM_LIMITS,
        EVENTS_REPLAY_RATE: String(REPLAY_RATE),
      },
      nodeArgs: [...POD_HEAP_FLAGS, ...settings.serverNodeArgs],
    });
    services.push(service);
    return service;
  };
  try {
    const first = await start();
    const projectIds = await createProjects(first);
    const targetOf = (service: Service) =>
      serviceTarget(backend.kind, service, projectIds);
    const event = await sampleEvent(targetOf(first));
    const measured = await streamsOf(targetOf(first), async () =>
      targetOf(await start()),
    );
    const service = services[services.length - 1];
    const replay = await pacedReplay(service, measured.target);
    log(
      `[${backend.kind}] paced replay, ${replay.streams} streams x ${replay.eventsPerStream} events at ${replay.rate}/s: all delivered in ${fmt(replay.elapsedMs)} ms (floor ${fmt(replay.floorMs)} ms) ${replayPasses(replay) ? 'pass' : 'FAIL'}; ${replay.pacedEvents} events held back, ${fmt(replay.pacedSeconds, 2)} s waited (server); ${replay.missing} missing`,
    );
    const { idle, rates: pairs } = measured;
    return {
      result: { kind: backend.kind, idle, rates: pairs, replay },
      event,
    };
  } catch (error) {
    // Why a service died mid-run: its own last words, before they are
    // deleted (its exit may reach this process a moment after the error).
    await sleep(1_000);
    for (const service of services.filter((s) => s.exited())) {
      console.error(`${service.name} ended:\n${service.stderrTail()}`);
    }
    throw error;
  } finally {
    for (const service of services) await service.stop();
  }
}

async function benchReference(event: string): Promise<TargetResult> {
  const servers: ReferenceServer[] = [];
  const start = async () => {
    const server = await startReference(event, settings.serverNodeArgs);
    servers.push(server);
    return server.target;
  };
  try {
    const { idle, rates: pairs } = await streamsOf(await start(), start);
    return { kind: 'reference', idle, rates: pairs };
  } finally {
    for (const server of servers) await server.stop();
  }
}

function report(results: TargetResult[]): string {
  return [
    idleTable(results),
    ...RATES.map((rate) => rateTable(results, rate)),
    replayTable(results),
  ].join('\n\n');
}

async function main(): Promise<void> {
  const startedAt = new Date();
  // Read now: the build measured is the tree at the start of the run.
  const code = codeVersionOf(REPO_ROOT);
  pinSelf(LOAD_CORE);
  log(
    `bench events: ${IDLE_STREAMS} idle streams (opened ${OPEN_PARALLEL} at a time); ${STREAMS} streams at ${RATES.join(', ')} writes/s for ${DURATION_S} s over ${PROJECTS} projects; paced replay ${REPLAY_STREAMS} x ${REPLAY_EVENTS} events at ${REPLAY_RATE}/s; the service allows them with ${Object.entries(
      SERVICE_STREAM_LIMITS,
    )
      .map(([name, value]) => `${name}=${value}`)
      .join(' ')}; temp ${run.workDir}`,
  );
  run.backends.push(await sqliteBackend(run.workDir));
  if (settings.postgresUrl) {
    run.backends.push(postgresBackend(settings.postgresUrl, run.workDir));
  }
  const results: TargetResult[] = [];
  // bench/results/ is ignored by git: a fresh clone does not have it.
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(
    RESULTS_DIR,
    `${startedAt
      .toISOString()
      .replace(/:/g, '-')
      .replace(/\.\d+Z$/, 'Z')}-events.json`,
  );
  // Written after each server: a run stopped later keeps what it measured.
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
            openParallel: OPEN_PARALLEL,
            streams: STREAMS,
            durationS: DURATION_S,
            projects: PROJECTS,
            rates: RATES,
            replay: {
              streams: REPLAY_STREAMS,
              events: REPLAY_EVENTS,
              rate: REPLAY_RATE,
            },
            serviceLimits: SERVICE_STREAM_LIMITS,
            serverNodeArgs: [...POD_HEAP_FLAGS, ...settings.serverNodeArgs],
          },
          results,
        },
        null,
        2,
      )}\n`,
    );
  // The reference right after the first database, the closest in time.
  for (const [index, backend] of run.backends.entries()) {
    const { result, event } = await benchBackend(backend);
    results.push(result);
    write();
    if (index === 0) {
      results.push(await benchReference(event));
      write();
    }
  }
  log(`\n${report(results)}\nwrote ${file}`);
}

main()
  .catch((error: unknown) => {
    if (!run.interrupted) {
      console.error(error);
      process.exitCode = 1;
    }
  })
  .finally(() => run.cleanup());
