import Database from 'better-sqlite3';
import { Client } from 'pg';
import { sleep } from './processes';

/**
 * Driving the task routes: submitting tasks, keeping a number of them in
 * flight, and reading back when each was created and finished. How many are
 * still waiting or running is read straight from the database (a read-only
 * connection of the orchestrator's), so that watching the queue costs the
 * service's process nothing.
 */

export type BenchTaskType = 'logo' | 'marketing-copy';

const INPUTS: Record<BenchTaskType, Record<string, unknown>> = {
  logo: {
    companyName: 'Bench Labs',
    style: 'modern',
    colors: ['#0044ff'],
    count: 1,
  },
  'marketing-copy': {},
};

export interface QueueCounts {
  queued: number;
  running: number;
}

/** The tasks table's unfinished rows, counted from outside the service. */
export interface QueueProbe {
  counts(): Promise<QueueCounts>;
  close(): Promise<void>;
}

const COUNT_SQL = `SELECT status, COUNT(*) AS n FROM tasks WHERE status IN ('QUEUED', 'RUNNING') GROUP BY status`;

function toCounts(rows: Array<{ status: string; n: number | string }>) {
  const counts: QueueCounts = { queued: 0, running: 0 };
  for (const row of rows) {
    if (row.status === 'QUEUED') counts.queued = Number(row.n);
    if (row.status === 'RUNNING') counts.running = Number(row.n);
  }
  return counts;
}

export async function queueProbe(databaseUrl: string): Promise<QueueProbe> {
  if (databaseUrl.startsWith('file:')) {
    const db = new Database(databaseUrl.slice('file:'.length), {
      readonly: true,
    });
    const statement = db.prepare(COUNT_SQL);
    return {
      counts: () =>
        Promise.resolve(
          toCounts(statement.all() as Array<{ status: string; n: number }>),
        ),
      close: () => Promise.resolve(void db.close()),
    };
  }
  const client = new Client({ connectionString: databaseUrl });
  // The database is dropped under it at the end of a run (or on Ctrl-C).
  client.on('error', () => undefined);
  await client.connect();
  return {
    counts: async () =>
      toCounts(
        (await client.query<{ status: string; n: string }>(COUNT_SQL)).rows,
      ),
    close: () => client.end(),
  };
}

/** POST /api/projects/{id}/tasks; the new task's id, or throws. */
export async function submitTask(
  baseUrl: string,
  projectId: string,
  type: BenchTaskType,
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/projects/${projectId}/tasks`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ type, input: INPUTS[type] }),
  });
  const text = await response.text();
  if (response.status !== 202) {
    throw new Error(`POST tasks answered ${response.status}: ${text}`);
  }
  return (JSON.parse(text) as { task: { id: string } }).task.id;
}

/**
 * `count` tasks over `projectIds` (round robin), `parallel` requests in
 * flight: as fast as the service accepts them.
 */
export async function submitMany(
  baseUrl: string,
  projectIds: string[],
  type: BenchTaskType,
  count: number,
  parallel: number,
): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next;
      next += 1;
      ids.push(
        await submitTask(baseUrl, projectIds[i % projectIds.length], type),
      );
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return ids;
}

/** Resolves once no task is QUEUED or RUNNING (throws after `timeoutMs`). */
export async function waitUntilDrained(
  probe: QueueProbe,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { queued, running } = await probe.counts();
    if (queued + running === 0) return;
    if (Date.now() > deadline) {
      throw new Error(
        `tasks not drained after ${timeoutMs} ms: ${queued} queued, ${running} running`,
      );
    }
    await sleep(50);
  }
}

export interface TaskTimes {
  id: string;
  status: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  attempts: number;
}

/** Every task of the projects, through GET /api/projects/{id}/tasks. */
export async function readTasks(
  baseUrl: string,
  projectIds: string[],
): Promise<TaskTimes[]> {
  const tasks: TaskTimes[] = [];
  for (const projectId of projectIds) {
    let cursor: string | null = null;
    do {
      const url = new URL(`${baseUrl}/api/projects/${projectId}/tasks`);
      url.searchParams.set('limit', '500');
      if (cursor) url.searchParams.set('cursor', cursor);
      const response = await fetch(url);
      if (response.status !== 200) {
        throw new Error(`GET tasks answered ${response.status}`);
      }
      const page = (await response.json()) as {
        tasks: TaskTimes[];
        nextCursor: string | null;
      };
      tasks.push(...page.tasks);
      cursor = page.nextCursor;
    } while (cursor);
  }
  return tasks;
}

export interface InFlightReport {
  submitted: number;
  /** RUNNING counts read every `sampleMs` while it kept tasks in flight. */
  runningSamples: number[];
}

export interface InFlight {
  /** From here on, RUNNING counts are kept for the report. */
  startSampling(): void;
  stop(): Promise<InFlightReport>;
}

/**
 * Keeps `target` tasks QUEUED or RUNNING until stopped: whenever fewer are,
 * submits the difference. A couple more than the workers keeps every
 * worker busy between a task ending and the next submit.
 */
export function keepInFlight(
  baseUrl: string,
  projectIds: string[],
  type: BenchTaskType,
  target: number,
  probe: QueueProbe,
  sampleMs = 100,
): InFlight {
  let stopped = false;
  let submitted = 0;
  let measuring = false;
  const runningSamples: number[] = [];
  const loop = (async () => {
    while (!stopped) {
      const { queued, running } = await probe.counts();
      if (measuring) runningSamples.push(running);
      const missing = target - queued - running;
      for (let i = 0; i < missing; i += 1) {
        await submitTask(
          baseUrl,
          projectIds[submitted % projectIds.length],
          type,
        );
        submitted += 1;
      }
      await sleep(sampleMs);
    }
  })();
  return {
    startSampling: () => {
      measuring = true;
    },
    async stop() {
      stopped = true;
      await loop;
      return { submitted, runningSamples };
    },
  };
}
