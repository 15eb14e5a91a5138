import { Injectable, Logger } from '@nestjs/common';
import type { Db, Job, PgBoss } from 'pg-boss';
import { managerOf, type Transaction } from '../../database/database.service';
import type { PostgresConfig } from '../../database/database.config';
import type { TasksConfig } from '../tasks.config';
import {
  PG_BOSS_QUEUE as QUEUE,
  pgBossOptions,
  priorityOf,
  queueOptions,
  workOptions,
  type TaskJob,
} from './pg-boss-settings';
import { wakeBusyWorkers } from './pg-boss-wake';
import { TaskEngine, type TaskHandler } from './task-engine';

/** How long stop() gives the handlers it aborted. */
const STOP_TIMEOUT_MS = 10_000;

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
    // Required here, not at the top: a SQLite process never loads pg-boss
    // (about 12 ms of every start, before readiness).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PgBoss: Boss } = require('pg-boss') as typeof import('pg-boss');
    this.boss = new Boss(pgBossOptions(database));
    // Never thrown: a lost connection is logged, and pg-boss reconnects.
    this.boss.on('error', (error: Error) =>
      this.logger.warn(`pg-boss: ${error.message}`),
    );
  }

  /** Installs pg-boss's schema and the queue (once per process). */
  private start(): Promise<void> {
    this.started ??= (async () => {
      await this.boss.start();
      const options = queueOptions(this.config);
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
    // Known once work() returns; a job done before then wakes nobody.
    const workers: { workId?: string } = {};
    workers.workId = await this.boss.work<TaskJob>(
      QUEUE,
      workOptions(concurrency),
      async ([job]: Job<TaskJob>[]) => {
        try {
          await this.handle(handler, job);
        } finally {
          // The queue may hold more: fetch again at once (see wakeBusyWorkers).
          if (workers.workId) wakeBusyWorkers(this.boss, workers.workId);
        }
      },
    );
  }

  private async handle(handler: TaskHandler, job: Job<TaskJob>) {
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
