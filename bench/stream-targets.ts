import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import {
  lagBetween,
  scrapeEventMetrics,
  type EventMetricsScrape,
} from './event-metrics';
import { POD_HEAP_FLAGS } from './pod-heap';
import { hasExited, startHelperServer, stopProcess } from './processes';
import type { Service } from './service';
import { SERVER_CORE } from './settings';

/**
 * What `npm run bench:events` drives, the service or the bare reference
 * (ref-sse-server.ts), through one interface: the same client, pacing and
 * /proc readings measure both.
 */
export interface StreamTarget {
  /** `sqlite`, `postgres` or `reference`. */
  readonly label: string;
  readonly pid: number;
  /** GET here opens a stream of every event. */
  readonly streamsUrl: string;
  streamsOpen(): Promise<number>;
  /** Why the server's process ended, when it has (else undefined). */
  failure(): string | undefined;
  /** One write that makes one event; resolves true when it was accepted. */
  write(index: number): Promise<boolean>;
  /** Starts a window of the server's own lag figure... */
  lagMark(): Promise<unknown>;
  /** ...and ends it. */
  lagSince(mark: unknown): Promise<ServerLag>;
}

/**
 * The server's own view of delay. Service: commit -> its feed read the
 * event (/metrics histogram, so p99 and max are bucket bounds). Reference:
 * the publish request's body -> the last stream written (exact).
 */
export interface ServerLag {
  what: 'commit → feed' | 'publish → all written';
  count: number;
  meanMs: number;
  p99Ms: number;
  maxMs: number;
  /** p99 and max are bucket upper bounds ("at most"). */
  bounded: boolean;
}

/** The line of a dead process's stderr that says why (V8's, or the last). */
function failureOf(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '');
  return (
    lines.find((line) => line.startsWith('FATAL ERROR')) ??
    lines.at(-1) ??
    'exited'
  );
}

export function serviceTarget(
  label: string,
  service: Service,
  projectIds: string[],
): StreamTarget {
  return {
    label,
    pid: service.pid,
    streamsUrl: `${service.baseUrl}/api/events`,
    streamsOpen: async () =>
      (await scrapeEventMetrics(service.baseUrl)).streamsOpen,
    failure: () =>
      service.exited() ? failureOf(service.stderrTail()) : undefined,
    write: async (index) => {
      const id = projectIds[index % projectIds.length];
      try {
        const response = await fetch(`${service.baseUrl}/api/projects/${id}`, {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `Events ${id.slice(-6)} ${index}` }),
        });
        await response.arrayBuffer();
        return response.status === 200;
      } catch {
        return false;
      }
    },
    lagMark: () => scrapeEventMetrics(service.baseUrl),
    lagSince: async (mark) => {
      const window = lagBetween(
        mark as EventMetricsScrape,
        await scrapeEventMetrics(service.baseUrl),
      );
      return {
        what: 'commit → feed',
        count: window.count,
        meanMs: window.meanMs,
        p99Ms: window.p99AtMostMs,
        maxMs: window.maxAtMostMs,
        bounded: true,
      };
    },
  };
}

export interface ReferenceServer {
  target: StreamTarget;
  stop(): Promise<void>;
}

interface ReferenceStats {
  streamsOpen: number;
  fanoutMs: number[];
}

/**
 * Starts ref-sse-server.ts pinned to the server core with the pod's heap
 * flags, as the service runs. `eventJson`: an event the service sent (its
 * `data:`), which every publish repeats with a fresh id and time, so that
 * both write frames of the same size.
 */
export async function startReference(
  eventJson: string,
  extraNodeArgs: string[],
): Promise<ReferenceServer> {
  const started = await startHelperServer(
    SERVER_CORE,
    join(__dirname, 'ref-sse-server.ts'),
    [],
    [...POD_HEAP_FLAGS, ...extraNodeArgs],
  );
  const child: ChildProcess = started.child;
  const baseUrl = `http://127.0.0.1:${started.port}`;
  const stats = async () =>
    (await (await fetch(`${baseUrl}/stats`)).json()) as ReferenceStats;
  const target: StreamTarget = {
    label: 'reference',
    pid: child.pid as number,
    streamsUrl: `${baseUrl}/events`,
    streamsOpen: async () => (await stats()).streamsOpen,
    failure: () =>
      hasExited(child) ? `exited (code ${child.exitCode})` : undefined,
    write: async () => {
      try {
        const response = await fetch(`${baseUrl}/publish`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: eventJson,
        });
        await response.arrayBuffer();
        return response.status === 200;
      } catch {
        return false;
      }
    },
    lagMark: async () => {
      await stats();
      return undefined;
    },
    lagSince: async () => {
      const samples = (await stats()).fanoutMs.sort((a, b) => a - b);
      const count = samples.length;
      return {
        what: 'publish → all written',
        count,
        meanMs: count ? samples.reduce((a, b) => a + b, 0) / count : NaN,
        p99Ms: count
          ? samples[Math.min(count - 1, Math.floor(count * 0.99))]
          : NaN,
        maxMs: count ? samples[count - 1] : NaN,
        bounded: false,
      };
    },
  };
  return { target, stop: () => stopProcess(child) };
}
