import { readFileSync } from 'node:fs';

/**
 * What kept the event loop from running, told apart: a 1 ms timer chain
 * notes the wall time between its ticks and the CPU time the main thread
 * itself spent in that time (process.threadCpuUsage). A long gap with
 * little CPU is the thread waiting to be scheduled (the machine's other
 * threads, e.g. libvips', had the cores), not work on the loop; the longest
 * CPU between two ticks is the longest stretch of work on the loop.
 * (monitorEventLoopDelay's histogram records the interval between its
 * ticks, its resolution included: a 10 ms histogram reads 10–11 ms idle.)
 */
export interface LoopHolds {
  /** The longest time between two ticks, less the 1 ms the timer waits. */
  longestGapMs: number;
  /** The main thread's CPU time within that longest gap. */
  cpuInLongestGapMs: number;
  /** The most CPU the main thread spent between two ticks: the longest hold by work. */
  longestCpuMs: number;
  /** The main thread's CPU time over the whole measure. */
  cpuMs: number;
  /** Times the kernel took the main thread off a core while it could run (Linux). */
  preempted?: number;
}

const TICK_MS = 1;
const STATUS = `/proc/self/task/${process.pid}/status`;

/** The main thread's involuntary context switches, where Linux tells them. */
function preemptions(): number | undefined {
  try {
    const match = /^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(
      readFileSync(STATUS, 'utf8'),
    );
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

const cpuMsOf = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

/** Runs `work` with the probe on; the holds it saw. */
export async function withLoopHolds<T>(
  work: () => Promise<T>,
): Promise<{ result: T; holds: LoopHolds }> {
  const holds: LoopHolds = {
    longestGapMs: 0,
    cpuInLongestGapMs: 0,
    longestCpuMs: 0,
    cpuMs: 0,
  };
  const startCpu = process.threadCpuUsage();
  const startPreempted = preemptions();
  let lastAt = performance.now();
  let lastCpu = startCpu;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = () => {
    const at = performance.now();
    const cpu = process.threadCpuUsage();
    const gap = at - lastAt - TICK_MS;
    const used = cpuMsOf(process.threadCpuUsage(lastCpu));
    if (gap > holds.longestGapMs) {
      holds.longestGapMs = gap;
      holds.cpuInLongestGapMs = used;
    }
    holds.longestCpuMs = Math.max(holds.longestCpuMs, used);
    lastAt = at;
    lastCpu = cpu;
    if (!stopped) timer = setTimeout(tick, TICK_MS);
  };
  timer = setTimeout(tick, TICK_MS);
  try {
    const result = await work();
    // The stretch since the last tick counts too.
    stopped = true;
    tick();
    return { result, holds };
  } finally {
    stopped = true;
    clearTimeout(timer);
    holds.cpuMs = cpuMsOf(process.threadCpuUsage(startCpu));
    const endPreempted = preemptions();
    if (startPreempted !== undefined && endPreempted !== undefined) {
      holds.preempted = endPreempted - startPreempted;
    }
  }
}

/** One line of a LoopHolds. */
export function describeHolds(holds: LoopHolds): string {
  const preempted =
    holds.preempted === undefined ? '' : `, preempted ${holds.preempted}×`;
  return `longest gap ${holds.longestGapMs.toFixed(1)} ms (loop CPU in it ${holds.cpuInLongestGapMs.toFixed(1)} ms), longest loop CPU between ticks ${holds.longestCpuMs.toFixed(1)} ms, loop CPU ${holds.cpuMs.toFixed(0)} ms${preempted}`;
}
