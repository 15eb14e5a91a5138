import { registerAs, type ConfigType } from '@nestjs/config';
import { integer, oneOf, type Env } from '../environment/env-values';

export const TASK_ENGINES = ['auto', 'embedded', 'pg-boss'] as const;
export type TaskEngineName = (typeof TASK_ENGINES)[number];

export const PROCESS_ROLES = ['all', 'api', 'worker'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

/**
 * How tasks run: which engine delivers them (auto = embedded on SQLite,
 * pg-boss on PostgreSQL), how many run at once in this process, how often
 * one is tried, how long a dead worker's task waits before another takes
 * it, and how many may wait per project and per user.
 */
export const tasksConfig = registerAs('tasks', (env: Env = process.env) => ({
  engine: oneOf(env, 'TASK_ENGINE', TASK_ENGINES, 'auto'),
  /**
   * all: serves the API and runs tasks; api: serves the API only (tasks
   * wait for a worker); worker: runs tasks, and answers only the health
   * and metrics routes.
   */
  role: oneOf(env, 'PROCESS_ROLE', PROCESS_ROLES, 'all'),
  concurrency: integer(env, 'TASK_CONCURRENCY', 4, 1, 256),
  maxAttempts: integer(env, 'TASK_MAX_ATTEMPTS', 2, 1, 10),
  /**
   * A running task's lease, renewed while it runs: a task whose worker
   * died is taken again within about this long (pg-boss's heartbeat
   * needs at least 10 s).
   */
  leaseSeconds: integer(env, 'TASK_LEASE_S', 10, 10, 3600),
  /** The first retry's delay; each later one doubles it. */
  retryDelayMs: integer(env, 'TASK_RETRY_DELAY_MS', 2000, 0, 3_600_000),
  /** How often a running task checks that it was not cancelled. */
  cancelCheckMs: integer(env, 'TASK_CANCEL_CHECK_MS', 500, 50, 60_000),
  maxQueuedPerProject: integer(
    env,
    'TASK_MAX_QUEUED_PER_PROJECT',
    10,
    1,
    10_000,
  ),
  maxQueuedPerUser: integer(env, 'TASK_MAX_QUEUED_PER_USER', 25, 1, 100_000),
}));

export type TasksConfig = ConfigType<typeof tasksConfig>;
