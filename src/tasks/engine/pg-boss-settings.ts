import type { ConstructorOptions, Queue, WorkOptions } from 'pg-boss';
import type { PostgresConfig } from '../../database/database.config';
import type { TasksConfig } from '../tasks.config';

/**
 * How the service drives pg-boss, in one place: the engine uses these, and
 * so does the bench's pg-boss-alone reference (bench/ref-pg-boss.ts), so
 * that the two never drift apart.
 */

/** The one queue every task goes through. */
export const PG_BOSS_QUEUE = 'workspace-tasks';
/** pg-boss's own tables live beside ours, in a schema of their own. */
export const PG_BOSS_SCHEMA = 'pgboss';
/**
 * How often pg-boss looks for jobs whose worker stopped sending
 * heartbeats (and its other supervision): with TASK_LEASE_S=10, a dead
 * worker's task is given to another within about 10 + 5 + 1 s.
 */
const SUPERVISE_SECONDS = 5;
/**
 * Idle workers look for jobs this often. A new task's NOTIFY wakes them
 * at once; a retried or delayed job sends none, so this bounds how long
 * it waits once due (pg-boss's own default with NOTIFY is 30 s).
 */
const POLLING_SECONDS = 2;

/** A job's payload. */
export interface TaskJob {
  taskId: string;
  /** The job's priority (see priorityOf); a retry's new job keeps it. */
  priority?: number;
}

/**
 * pg-boss fetches by priority (higher first), then creation order. A
 * task's priority is minus its owner's backlog when it was queued: every
 * user's first task comes before any user's second, and so on — round
 * robin by user — while a lone user still has every worker. Bounded
 * below by the per-user cap, so no task waits behind more than one task
 * per other user and place in line.
 */
export const priorityOf = (backlog: number): number => -Math.max(0, backlog);

export function pgBossOptions(database: PostgresConfig): ConstructorOptions {
  return {
    connectionString: database.url,
    ssl: database.ssl ? { rejectUnauthorized: true } : undefined,
    connectionTimeoutMillis: database.connectTimeoutMs,
    schema: PG_BOSS_SCHEMA,
    max: 4,
    application_name: 'workspace-api-tasks',
    superviseIntervalSeconds: SUPERVISE_SECONDS,
    monitorIntervalSeconds: SUPERVISE_SECONDS,
    // How fresh the backlog the workers burst on is (see workOptions).
    queueCacheIntervalSeconds: SUPERVISE_SECONDS,
    useListenNotify: true,
  };
}

/** The queue's options, set when it is created and on every start. */
export function queueOptions(config: TasksConfig) {
  return {
    heartbeatSeconds: config.leaseSeconds,
    // Only a killed worker uses one of these (a task that must run again
    // gets a new job); the runner fails the task once its own attempts
    // are used up.
    retryLimit: config.maxAttempts + 1,
    retryDelay: 0,
    // A running task is bounded by its heartbeat, not by this.
    expireInSeconds: 24 * 60 * 60,
    deleteAfterSeconds: 24 * 60 * 60,
    notify: true,
  } satisfies Omit<Queue, 'name'>;
}

/** One job per fetch, `concurrency` fetching and running at once. */
export function workOptions(concurrency: number): WorkOptions {
  return {
    batchSize: 1,
    localConcurrency: concurrency,
    pollingIntervalSeconds: POLLING_SECONDS,
    notifyPollingIntervalSeconds: POLLING_SECONDS,
    // With a backlog (pg-boss's queue stats, refreshed every
    // SUPERVISE_SECONDS), a worker that finished fetches the next job at
    // once instead of waiting out its poll: 4 workers polling every 2 s
    // otherwise ran about 2 tasks a second whatever the upstream.
    burstWhenReadyExceeds: 1,
  };
}
