import type { Transaction } from '../../database/database.service';

/** One delivery of a task to this process's handler. */
export interface TaskDelivery {
  taskId: string;
  /**
   * Aborted when this process stops taking tasks (shutdown) or loses the
   * task's lease: the handler must give up at once; the task is delivered
   * again later.
   */
  signal: AbortSignal;
}

/**
 * What the handler made of a delivery: the task reached a final status (or
 * vanished), or it must run again, no sooner than delayMs from now.
 */
export type TaskOutcome =
  { kind: 'settled' } | { kind: 'retry'; delayMs: number };

export type TaskHandler = (delivery: TaskDelivery) => Promise<TaskOutcome>;

/**
 * Delivers queued tasks to workers: in process on SQLite (embedded), on
 * pg-boss with PostgreSQL. Every engine promises:
 * - a task enqueued in a transaction that commits is delivered; one whose
 *   transaction rolls back never is;
 * - never two deliveries of one task at once while its holder lives (the
 *   handler still guards with a compare-and-set on the task's row);
 * - a task whose holder died (process killed) is delivered again within
 *   about TASK_LEASE_S of a worker being free; the handler tells a
 *   retried attempt from a lost one by the task's row;
 * - after `retry`, delivered again no sooner than its delay.
 */
export abstract class TaskEngine {
  /**
   * Queues the task in the transaction that inserts its row. `backlog` is
   * how many of its owner's tasks were already queued or running: every
   * engine takes a user's first task before another user's later ones
   * (round robin by user), so one user's backlog never holds another
   * user's first task for longer than a worker needs to come free.
   */
  abstract enqueue(
    transaction: Transaction,
    taskId: string,
    backlog: number,
  ): Promise<void>;

  /** Starts delivering tasks to `handler`, at most `concurrency` at once. */
  abstract startWorkers(
    handler: TaskHandler,
    concurrency: number,
  ): Promise<void>;

  /** Best effort: a cancelled or deleted task's queued delivery is dropped. */
  abstract forget(taskId: string): Promise<void>;

  /**
   * Stops taking tasks, aborts the deliveries in hand and waits (bounded)
   * for their handlers to return.
   */
  abstract stop(): Promise<void>;
}
