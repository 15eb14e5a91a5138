/**
 * Preloaded (`node -r`) into the server process by the load and cost tests, so
 * the service itself carries no test hook. It measures the event loop's
 * delay two ways and answers over the IPC channel: {type:'reset'} starts a
 * new window; {type:'stats'} collects garbage (the process runs with
 * --expose-gc) and reports the window's figures and the memory in use.
 *
 * - perf_hooks.monitorEventLoopDelay: every delay, whatever its cause. On a
 *   shared machine that includes time the process spent waiting for a CPU.
 * - A stall: a delay during which the main thread itself was running (its
 *   own CPU time, from /proc, grew by as much as the delay) — the service
 *   blocking its own loop, which is what a stall check is meant to catch,
 *   and which the load of other processes cannot fake.
 */
import { readFileSync } from 'node:fs';
import {
  monitorEventLoopDelay,
  performance,
  PerformanceObserver,
} from 'node:perf_hooks';

export interface LoopStats {
  maxDelayMs: number;
  p99DelayMs: number;
  meanDelayMs: number;
  /** The longest delay spent running on the main thread. */
  maxStallMs: number;
  /** When it ended, in ms since the window started. */
  maxStallAtMs: number;
  /** The longest garbage-collection pause, to tell a GC from our code. */
  maxGcPauseMs: number;
  /** The main thread's CPU time since the window started, and its length. */
  mainThreadCpuMs: number;
  windowMs: number;
  rssBytes: number;
  /** The largest RSS sampled (every tick) in the window, before any GC. */
  maxRssBytes: number;
  heapUsedBytes: number;
  externalBytes: number;
}

const TICK_MS = 10;
/** Linux's USER_HZ: /proc reports CPU time in 1/100 s. */
const MS_PER_CLOCK_TICK = 10;

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();

/** utime + stime of the main thread (task id = process id), in ms. */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_CLOCK_TICK;
}

let maxGcPauseMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    maxGcPauseMs = Math.max(maxGcPauseMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });

let maxStallMs = 0;
let maxStallAt = 0;
let maxRssBytes = 0;
let windowStart = performance.now();
let windowCpuMs = mainThreadCpuMs();
let lastAt = performance.now();
let lastCpuMs = mainThreadCpuMs();
setInterval(() => {
  const now = performance.now();
  const cpuMs = mainThreadCpuMs();
  const delayMs = now - lastAt - TICK_MS;
  // The part of the delay the main thread spent running (CPU time is
  // counted in 10 ms steps, so allow one step).
  const stallMs = Math.min(delayMs, cpuMs - lastCpuMs + MS_PER_CLOCK_TICK);
  if (stallMs > maxStallMs) {
    maxStallMs = stallMs;
    maxStallAt = now;
  }
  lastAt = now;
  lastCpuMs = cpuMs;
  maxRssBytes = Math.max(maxRssBytes, process.memoryUsage.rss());
}, TICK_MS).unref();

process.on('message', (message: { type?: string }) => {
  if (message.type === 'reset') {
    histogram.reset();
    maxStallMs = 0;
    maxGcPauseMs = 0;
    maxRssBytes = process.memoryUsage.rss();
    windowStart = performance.now();
    windowCpuMs = mainThreadCpuMs();
    // The window starts now: a delay that began before it (the full GC
    // of the previous 'stats', say) is not this window's.
    lastAt = windowStart;
    lastCpuMs = windowCpuMs;
    process.send?.({ type: 'reset' });
    return;
  }
  if (message.type === 'stats') {
    const stats: LoopStats = {
      maxDelayMs: histogram.max / 1e6,
      p99DelayMs: histogram.percentile(99) / 1e6,
      meanDelayMs: histogram.mean / 1e6,
      maxStallMs,
      maxStallAtMs: maxStallAt - windowStart,
      maxGcPauseMs,
      mainThreadCpuMs: mainThreadCpuMs() - windowCpuMs,
      windowMs: performance.now() - windowStart,
      maxRssBytes: Math.max(maxRssBytes, process.memoryUsage.rss()),
      ...memoryAfterGc(),
    };
    process.send?.(stats);
  }
});

function memoryAfterGc(): Pick<
  LoopStats,
  'rssBytes' | 'heapUsedBytes' | 'externalBytes'
> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const usage = process.memoryUsage();
  return {
    rssBytes: usage.rss,
    heapUsedBytes: usage.heapUsed,
    externalBytes: usage.external,
  };
}
