import { PgBoss, type Job } from 'pg-boss';
import { v7 as uuidv7 } from 'uuid';
import {
  PG_BOSS_QUEUE,
  PG_BOSS_SCHEMA,
  pgBossOptions,
  priorityOf,
  queueOptions,
  workOptions,
  type TaskJob,
} from '../src/tasks/engine/pg-boss-settings';
import { tasksConfig } from '../src/tasks/tasks.config';
import { cpuSpent, cpuTimeUs, cpuTimesByName } from './proc-stats';
import type { Batch } from './ref-pg-boss-batch';

/**
 * Reference, "pg-boss alone": the service's pg-boss (same constructor,
 * queue and worker options, from src/tasks/engine/pg-boss-settings.ts) on
 * a database of its own, running a handler that does nothing. Jobs are
 * sent as the service sends a task's first job: id, payload and priority
 * (minus the owner's backlog, owners taken round robin), `parallel` sends
 * in flight, as fast as pg-boss takes them. What the service spends per
 * task beyond this is its own.
 *
 * `ref-pg-boss.ts <databaseUrl> <warmupJobs> <jobs> <parallel> <owners>`,
 * TASK_* variables as the service reads them; prints one JSON line with the
 * measured batch only (the warm-up batch runs first, on the same workers).
 */

const [url, warmupJobs, jobs, parallel, owners] = process.argv.slice(2);
const config = tasksConfig();

const boss = new PgBoss(
  pgBossOptions({
    type: 'postgres',
    url,
    poolSize: 4,
    ssl: false,
    connectTimeoutMs: 10_000,
    statementTimeoutMs: 0,
    listPoolSize: 1,
  }),
);
boss.on('error', (error: Error) => console.error(`pg-boss: ${error.message}`));

/** When each job was sent, and when its handler ran and returned. */
const sentAt = new Map<string, number>();
const startedAt = new Map<string, number>();
const endedAt = new Map<string, number>();
let handled = 0;
let allHandled: (() => void) | undefined;
let expected = 0;

async function handler([job]: Job<TaskJob>[]): Promise<void> {
  startedAt.set(job.id, Date.now());
  // Nothing to do: what is left is pg-boss's fetch, heartbeat and complete.
  await Promise.resolve();
  endedAt.set(job.id, Date.now());
  handled += 1;
  if (handled === expected) allHandled?.();
}

const p50 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** Jobs not yet completed (or failed) by pg-boss. */
async function unfinished(): Promise<number> {
  const { rows } = await boss
    .getDb()
    .executeSql(
      `SELECT count(*)::int AS n FROM ${PG_BOSS_SCHEMA}.job WHERE name = $1 AND state < 'completed'`,
      [PG_BOSS_QUEUE],
    );
  return (rows[0] as { n: number }).n;
}

async function batch(count: number): Promise<Batch> {
  sentAt.clear();
  startedAt.clear();
  endedAt.clear();
  handled = 0;
  expected = count;
  const done = new Promise<void>((resolve) => (allHandled = resolve));
  const backlog = new Map<number, number>();
  const postgresBefore = cpuTimesByName('postgres');
  const cpuBefore = cpuTimeUs(process.pid);
  const first = Date.now();
  let lastSent = first;
  let next = 0;
  const sender = async () => {
    while (next < count) {
      const owner = next % Number(owners);
      next += 1;
      const ahead = backlog.get(owner) ?? 0;
      backlog.set(owner, ahead + 1);
      const id = uuidv7();
      const priority = priorityOf(ahead);
      sentAt.set(id, Date.now());
      await boss.send(
        PG_BOSS_QUEUE,
        { taskId: id, priority } satisfies TaskJob,
        { id, priority },
      );
      lastSent = Date.now();
    }
  };
  await Promise.all(Array.from({ length: Number(parallel) }, sender));
  await done;
  const lastEnded = Math.max(...endedAt.values());
  // pg-boss completes a job after its handler returns: count that too.
  while ((await unfinished()) > 0) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const cpuUs = cpuTimeUs(process.pid) - cpuBefore;
  const postgresCpuUs = cpuSpent(postgresBefore, cpuTimesByName('postgres'));
  const spanMs = lastEnded - first;
  return {
    jobs: count,
    spanMs,
    jobsPerSecond: count / (spanMs / 1000),
    submitSpanMs: lastSent - first,
    cpuUsPerJob: cpuUs / count,
    postgresCpuUsPerJob: postgresCpuUs / count,
    waitP50Ms: p50(
      [...startedAt].map(([id, at]) => at - (sentAt.get(id) ?? NaN)),
    ),
  };
}

async function main(): Promise<void> {
  await boss.start();
  if (await boss.getQueue(PG_BOSS_QUEUE)) {
    await boss.updateQueue(PG_BOSS_QUEUE, queueOptions(config));
  } else {
    await boss.createQueue(PG_BOSS_QUEUE, queueOptions(config));
  }
  await boss.work<TaskJob>(
    PG_BOSS_QUEUE,
    workOptions(config.concurrency),
    handler,
  );
  await batch(Number(warmupJobs));
  const measured = await batch(Number(jobs));
  await boss.stop({ graceful: true, timeout: 5_000 });
  process.stdout.write(`${JSON.stringify(measured)}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
