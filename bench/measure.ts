import type { LoadGenerator } from './load-client';
import type {
  BurstJob,
  BurstResult,
  TimedJob,
  TimedResult,
} from './load-protocol';
import {
  coreBusyUs,
  cpuSpent,
  cpuTimesByName,
  cpuTimeUs,
  listenOverflows,
  rssBytes,
  waitForIdle,
  watchRss,
} from './proc-stats';
import { sleep } from './processes';

/**
 * One measured window against one server process: the load generator's view
 * (req/s, latencies, errors) joined with the kernel's view of the server
 * (CPU time per request, RSS), read around the measured window only.
 */

export interface TimedSample {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** non-2xx answers + socket errors and timeouts. */
  errors: number;
  /** Server user+system CPU time over the window / requests answered. */
  cpuUsPerRequest: number;
  /**
   * Share of one core the server used during the window. Well below 1, the
   * server was not the bottleneck (the load generator or the database was).
   */
  serverCoreBusy: number;
  rssBytes: number;
  peakRssBytes: number;
  /** The rate asked for (fixed-rate runs only). */
  targetRate?: number;
  /**
   * On PostgreSQL: the database's CPU time over the window per request
   * (every postgres process), beside the service's.
   */
  postgresCpuUsPerRequest?: number;
  /**
   * Share of the server's core busy with anything but the server during the
   * window (only when `serverCore` is given): other processes, and kernel
   * work such as loopback networking and disk flushes, some of it on the
   * server's behalf. A busy machine inflates CPU per request through caches
   * and context switches.
   */
  coreOthersBusy?: number;
  load: TimedResult;
}

export interface TimedOptions {
  /** Also read PostgreSQL's CPU time around the window. */
  postgres?: boolean;
  /** The core the server is pinned to, to read what else ran on it. */
  serverCore?: number;
}

export async function measureTimed(
  load: LoadGenerator,
  serverPid: number,
  job: TimedJob,
  options: TimedOptions = {},
): Promise<TimedSample> {
  let cpuBefore = 0;
  let postgresBefore = new Map<number, number>();
  let coreBefore = 0;
  let watch: ReturnType<typeof watchRss> | undefined;
  const result = await load.run(job, async () => {
    await waitForIdle(serverPid);
    cpuBefore = cpuTimeUs(serverPid);
    if (options.serverCore !== undefined)
      coreBefore = coreBusyUs(options.serverCore);
    if (options.postgres) postgresBefore = cpuTimesByName('postgres');
    watch = watchRss(serverPid, 100);
  });
  const cpuUs = cpuTimeUs(serverPid) - cpuBefore;
  const coreUs =
    options.serverCore === undefined
      ? undefined
      : coreBusyUs(options.serverCore) - coreBefore;
  const postgresUs = options.postgres
    ? cpuSpent(postgresBefore, cpuTimesByName('postgres'))
    : undefined;
  const memory = watch!.stop();
  await waitForIdle(serverPid);
  const requests = Math.max(1, result.completed);
  return {
    perSecond: result.perSecond,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    errors: result.non2xx + result.socketErrors,
    cpuUsPerRequest: cpuUs / requests,
    serverCoreBusy: cpuUs / (result.seconds * 1e6),
    rssBytes: memory.last,
    peakRssBytes: memory.peak,
    ...(job.rate === undefined ? {} : { targetRate: job.rate }),
    ...(postgresUs === undefined
      ? {}
      : { postgresCpuUsPerRequest: postgresUs / requests }),
    ...(coreUs === undefined
      ? {}
      : {
          coreOthersBusy: Math.max(0, coreUs - cpuUs) / (result.seconds * 1e6),
        }),
    load: result,
  };
}

export interface BurstSample {
  elapsedMs: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  rssBeforeBytes: number;
  peakRssBytes: number;
  /** Peak during the burst minus RSS just before it. */
  rssGrowthBytes: number;
  cpuUsPerRequest: number;
  /**
   * Connections the kernel dropped because a listen queue was full (system
   * wide, during the burst): each costs the client a 1 s SYN retry.
   */
  listenOverflows: number;
  load: BurstResult;
}

export async function measureBurst(
  load: LoadGenerator,
  serverPid: number,
  job: BurstJob,
): Promise<BurstSample> {
  let before = 0;
  let overflowsBefore = 0;
  let cpuBefore = 0;
  let watch: ReturnType<typeof watchRss> | undefined;
  const result = await load.run(job, async () => {
    // Let the warm-up's garbage settle so "before" is the idle level.
    await sleep(500);
    before = rssBytes(serverPid);
    overflowsBefore = listenOverflows();
    cpuBefore = cpuTimeUs(serverPid);
    watch = watchRss(serverPid, 10);
  });
  const cpuUs = cpuTimeUs(serverPid) - cpuBefore;
  const memory = watch!.stop();
  return {
    elapsedMs: result.elapsedMs,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    errors: result.non2xx + result.socketErrors,
    rssBeforeBytes: before,
    peakRssBytes: memory.peak,
    rssGrowthBytes: memory.peak - before,
    cpuUsPerRequest: cpuUs / job.requests,
    listenOverflows: listenOverflows() - overflowsBefore,
    load: result,
  };
}
