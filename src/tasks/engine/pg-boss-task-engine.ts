import { Injectable, Logger } from '@nestjs/common';
import { PgBoss, type Db, type Job } from 'pg-boss';
import { managerOf, type Transaction } from '../../database/database.service';
import type { PostgresConfig } from '../../database/database.config';
import type { TasksConfig } from '../tasks.config';
import { TaskEngine, type TaskHandler } from './task-engine';

/** The one queue every task goes through. */
const QUEUE = 'workspace-tasks';
/** pg-boss's own tables live beside ours, in a schema of their own. */
const SCHEMA = 'pgboss';
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
/** How long stop() gives the handlers it aborted. */
const STOP_TIMEOUT_MS = 10_000;

interface TaskJob {
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
const priorityOf = (backlog: number): number => -Math.max(0, backlog);

/**
 * The engine for PostgreSQL, where several replicas run workers: pg-boss,
 * on the same database, in its own schema. A task's first job is sent in
 * the transaction that inserts the task (so a 202 is never lost, and a
 * rolled-back task never runs); a worker heartbeats while it runs one, so
 * pg-boss hands the job of a killed worker to another once TASK_LEASE_S
 * passes without a heartbeat. pg-boss's own retries serve only that: a
 * task that must run again later (the runner's backoff) gets a new job
 * with startAfter; the runner decides from the task's row how many
 * attempts it has had, and fails it once they are used up.
 */
@Injectable()
export class PgBossTaskEngine extends TaskEngine {
  private readonly logger = new Logger(PgBossTaskEngine.name);
  private readonly boss: PgBoss;
  private readonly stopping = new AbortController();
  private started?: Promise<void>;

  constructor(
    database: PostgresConfig,
    private readonly config: TasksConfig,
  ) {
    super();
    this.boss = new PgBoss({
      connectionString: database.url,
      ssl: database.ssl ? { rejectUnauthorized: true } : undefined,
      connectionTimeoutMillis: database.connectTimeoutMs,
      schema: SCHEMA,
      max: 4,
      application_name: 'workspace-api-tasks',
      superviseIntervalSeconds: SUPERVISE_SECONDS,
      monitorIntervalSeconds: SUPERVISE_SECONDS,
      // How fresh the backlog the workers burst on is (see startWorkers).
      queueCacheIntervalSeconds: SUPERVISE_SECONDS,
      useListenNotify: true,
    });
    // Never thrown: a lost connection is logged, and pg-boss reconnects.
    this.boss.on('error', (error: Error) =>
      this.logger.warn(`pg-boss: ${error.message}`),
    );
  }

  /** Installs pg-boss's schema and the queue (once per process). */
  private start(): Promise<void> {
    this.started ??= (async () => {
      await this.boss.start();
      const options = {
        heartbeatSeconds: this.config.leaseSeconds,
        // Only a killed worker uses one of these (see above); the runner
        // fails the task once its own attempts are used up.
        retryLimit: this.config.maxAttempts + 1,
        retryDelay: 0,
        // A running task is bounded by its heartbeat, not by this.
        expireInSeconds: 24 * 60 * 60,
        deleteAfterSeconds: 24 * 60 * 60,
        notify: true,
      };
      if (await this.boss.getQueue(QUEUE)) {
        await this.boss.updateQueue(QUEUE, options);
      } else {
        await this.boss.createQueue(QUEUE, options);
      }
    })();
    return this.started;
  }

  async enqueue(
    transaction: Transaction,
    taskId: string,
    backlog: number,
  ): Promise<void> {
    await this.start();
    const priority = priorityOf(backlog);
    await this.boss.send(QUEUE, { taskId, priority } satisfies TaskJob, {
      id: taskId,
      priority,
      db: inTransaction(transaction),
    });
  }

  async startWorkers(handler: TaskHandler, concurrency: number): Promise<void> {
    await this.start();
    await this.boss.work<TaskJob>(
      QUEUE,
      {
        batchSize: 1,
        localConcurrency: concurrency,
        pollingIntervalSeconds: POLLING_SECONDS,
        notifyPollingIntervalSeconds: POLLING_SECONDS,
        // With a backlog (pg-boss's queue stats, refreshed every
        // SUPERVISE_SECONDS), a worker that finished fetches the next job
        // at once instead of waiting out its poll: 4 workers polling every
        // 2 s otherwise ran about 2 tasks a second whatever the upstream.
        burstWhenReadyExceeds: 1,
      },
      async ([job]: Job<TaskJob>[]) => {
        const { taskId, priority } = job.data;
        const outcome = await handler({
          taskId,
          signal: AbortSignal.any([job.signal, this.stopping.signal]),
        });
        if (outcome.kind === 'retry') {
          await this.boss.send(QUEUE, { taskId, priority } satisfies TaskJob, {
            startAfter: Math.ceil(outcome.delayMs / 1000),
            priority: priority ?? 0,
          });
        }
      },
    );
  }

  /** The task's first job, if it has not started: a later one just finds it cancelled. */
  async forget(taskId: string): Promise<void> {
    if (!this.started) return;
    await this.boss.cancel(QUEUE, taskId).catch((error: Error) => {
      this.logger.warn(`Job of task ${taskId} not cancelled: ${error.message}`);
    });
  }

  async stop(): Promise<void> {
    this.stopping.abort(new Error('The process is stopping'));
    if (!this.started) return;
    await this.started.catch(() => undefined);
    await this.boss.stop({ graceful: true, timeout: STOP_TIMEOUT_MS });
  }
}

/** pg-boss's statements run in the caller's TypeORM transaction. */
function inTransaction(transaction: Transaction): Db {
  const runner = managerOf(transaction).queryRunner;
  if (!runner) throw new Error('A task is enqueued inside a transaction');
  return {
    executeSql: async (text: string, values?: unknown[]) => ({
      rows: (await runner.query(text, values, true)).records as unknown[],
    }),
  };
}
