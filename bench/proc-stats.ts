import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * What the kernel knows about a process: CPU time and memory, read from
 * /proc so that measuring costs the measured process nothing.
 */

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(
        execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim(),
      );
    } catch {
      ticksPerSecond = 100; // Linux's USER_HZ almost everywhere.
    }
  }
  return ticksPerSecond;
}

/** user + system CPU time of all the process's threads, in microseconds. */
export function cpuTimeUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; count from after its ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1e6) / clockTicks();
}

/**
 * Time one core spent busy (everything but idle and iowait) since boot, in
 * microseconds, from /proc/stat's `cpu<N>` line.
 */
export function coreBusyUs(core: number): number {
  const line = readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .find((row) => row.startsWith(`cpu${core} `));
  if (!line) return NaN;
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest is inside user).
  const busy = ticks
    .slice(0, 8)
    .reduce((sum, value, i) => (i === 3 || i === 4 ? sum : sum + value), 0);
  return (busy * 1e6) / clockTicks();
}

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) * 1024 : NaN;
}

/** Resident set size now, in bytes. */
export const rssBytes = (pid: number): number => statusField(pid, 'VmRSS');

/**
 * Resets the kernel's peak-RSS mark (VmHWM) so that a later peakRssBytes()
 * covers only what happened since. Returns false where that is not allowed.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export const peakRssBytes = (pid: number): number => statusField(pid, 'VmHWM');

/**
 * Samples RSS every `intervalMs` until stopped; the kernel's VmHWM catches
 * peaks between samples where it can be reset.
 */
export function watchRss(pid: number, intervalMs: number) {
  const hwmReset = resetPeakRss(pid);
  let peak = rssBytes(pid);
  const timer = setInterval(() => {
    try {
      // An exited process not yet reaped has a status without VmRSS (NaN).
      const now = rssBytes(pid);
      if (Number.isFinite(now)) peak = Math.max(peak, now);
    } catch {
      // The process is gone; the caller will notice.
    }
  }, intervalMs);
  return {
    /** The highest sample so far (readable after the process is gone). */
    peakSoFar: () => peak,
    stop(): { peak: number; last: number } {
      clearInterval(timer);
      const last = rssBytes(pid);
      peak = Math.max(peak, last);
      if (hwmReset) peak = Math.max(peak, peakRssBytes(pid));
      return { peak, last };
    },
  };
}

export const MB = 1024 * 1024;

/** TcpExt ListenOverflows from /proc/net/netstat (0 where unreadable). */
export function listenOverflows(): number {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
    const header = lines.findIndex(
      (line) => line.startsWith('TcpExt:') && /[A-Za-z]/.test(line.slice(7)),
    );
    const names = lines[header].split(' ');
    const values = lines[header + 1].split(' ');
    const value = Number(values[names.indexOf('ListenOverflows')]);
    return Number.isFinite(value) ? value : 0;
  } catch {
    return 0;
  }
}

/**
 * Waits until the process stops using CPU. A load generator that stops
 * leaves the server finishing the requests it abandoned (30 list-all
 * requests are seconds of work); that work must not land in the next
 * measured window, on this server or on another one sharing the core.
 */
export async function waitForIdle(
  pid: number,
  timeoutMs = 60_000,
): Promise<void> {
  const sliceMs = 200;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const before = cpuTimeUs(pid);
    await new Promise((resolvePromise) => setTimeout(resolvePromise, sliceMs));
    // Under 10% of a core (at most two 10 ms clock ticks) counts as idle.
    if (cpuTimeUs(pid) - before <= sliceMs * 1000 * 0.1) return;
  }
}

/**
 * CPU time of every process named `name` (e.g. PostgreSQL's server and its
 * backends), per pid. The difference of two readings (cpuSpent) counts a
 * backend born in between from zero; one that exited in between is lost,
 * which the service's pooled, long-lived connections make rare.
 */
export function cpuTimesByName(name: string): Map<number, number> {
  const times = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== name) continue;
      times.set(Number(entry), cpuTimeUs(Number(entry)));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return times;
}

/** CPU µs spent between two cpuTimesByName readings. */
export function cpuSpent(
  before: Map<number, number>,
  after: Map<number, number>,
): number {
  let total = 0;
  for (const [pid, time] of after) total += time - (before.get(pid) ?? 0);
  return total;
}
