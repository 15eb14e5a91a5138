import { Inject, Injectable, Logger } from '@nestjs/common';
import { tasksConfig, type TasksConfig } from '../tasks.config';
import { TaskEngine, type TaskHandler, type TaskOutcome } from './task-engine';
import { TaskScheduleRepository } from './task-schedule.repository';

/** How often idle workers look for due tasks they were not woken for. */
const POLL_MS = 1000;
/** After a handler that threw (a bug or a lost database): try again then. */
const AFTER_FAULT_MS = 5000;
/** How long stop() waits for the handlers it aborted. */
const STOP_WAIT_MS = 10_000;

/**
 * The engine of one process on SQLite: the tasks table is the queue. A
 * task is taken with a lease (TASK_LEASE_S, renewed every third of it
 * while it runs), so one whose process was killed is taken again once the
 * lease has run out, after a restart. Enqueueing in this process wakes the
 * workers at once; otherwise they look every second. With several
 * replicas, use PostgreSQL and pg-boss (pg-boss-task-engine.ts).
 */
@Injectable()
export class EmbeddedTaskEngine extends TaskEngine {
  private readonly logger = new Logger(EmbeddedTaskEngine.name);
  private readonly leaseMs: number;
  private readonly held = new Map<string, AbortController>();
  private readonly renewals = new Set<NodeJS.Timeout>();
  private handler?: TaskHandler;
  private concurrency = 0;
  private poll?: NodeJS.Timeout;
  private filling = false;
  private fillAgain = false;
  private stopped = false;

  constructor(
    private readonly schedule: TaskScheduleRepository,
    @Inject(tasksConfig.KEY) config: TasksConfig,
  ) {
    super();
    this.leaseMs = config.leaseSeconds * 1000;
  }

  /**
   * The row the transaction inserts is the queue entry: only a wake-up.
   * The order is the schedule's (round robin by user, see take()).
   */
  enqueue(): Promise<void> {
    setImmediate(() => void this.fill());
    return Promise.resolve();
  }

  startWorkers(handler: TaskHandler, concurrency: number): Promise<void> {
    this.handler = handler;
    this.concurrency = concurrency;
    this.poll = setInterval(() => void this.fill(), POLL_MS);
    this.poll.unref();
    void this.fill();
    return Promise.resolve();
  }

  /** A cancelled task's row says so; the runner skips it when it comes. */
  forget(): Promise<void> {
    return Promise.resolve();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    for (const controller of this.held.values()) {
      controller.abort(new Error('The process is stopping'));
    }
    const deadline = Date.now() + STOP_WAIT_MS;
    while (this.held.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // A handler that ignored its signal keeps running, but its task is no
    // longer held: its lease lapses and another process takes it.
    for (const renewal of this.renewals) clearInterval(renewal);
    this.renewals.clear();
  }

  /** Takes due tasks until every worker has one or none is due. */
  private async fill(): Promise<void> {
    if (!this.handler || this.stopped) return;
    if (this.filling) {
      this.fillAgain = true;
      return;
    }
    this.filling = true;
    try {
      do {
        this.fillAgain = false;
        while (this.held.size < this.concurrency && !this.stopped) {
          const now = Date.now();
          const taskId = await this.schedule.take(
            new Date(now),
            new Date(now + this.leaseMs),
          );
          // Already in hand: between its attempts (the lease just renewed).
          if (taskId === undefined || this.held.has(taskId)) break;
          void this.deliver(taskId);
        }
      } while (this.fillAgain && !this.stopped);
    } catch (error) {
      this.logger.warn(`Could not take tasks: ${describe(error)}`);
    } finally {
      this.filling = false;
    }
  }

  private async deliver(taskId: string): Promise<void> {
    const controller = new AbortController();
    this.held.set(taskId, controller);
    const renewal = setInterval(() => {
      void this.schedule
        .renew(taskId, new Date(Date.now() + this.leaseMs))
        .catch((error: unknown) =>
          this.logger.warn(
            `Lease of task ${taskId} not renewed: ${describe(error)}`,
          ),
        );
    }, this.leaseMs / 3);
    renewal.unref();
    this.renewals.add(renewal);
    let outcome: TaskOutcome;
    try {
      outcome = await this.handler!({ taskId, signal: controller.signal });
    } catch (error) {
      this.logger.error(`Task ${taskId} handler failed: ${describe(error)}`);
      outcome = { kind: 'retry', delayMs: AFTER_FAULT_MS };
    } finally {
      clearInterval(renewal);
      this.renewals.delete(renewal);
    }
    const delayMs = outcome.kind === 'retry' ? outcome.delayMs : 0;
    try {
      await this.schedule.release(taskId, new Date(Date.now() + delayMs));
    } catch (error) {
      // The lease runs out by itself; the task is taken again then.
      this.logger.warn(`Task ${taskId} not released: ${describe(error)}`);
    }
    this.held.delete(taskId);
    if (outcome.kind === 'retry' && !this.stopped) {
      setTimeout(() => void this.fill(), delayMs).unref();
    }
    void this.fill();
  }
}

const describe = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
