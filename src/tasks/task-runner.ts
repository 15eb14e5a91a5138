import { Inject, Injectable, Logger } from '@nestjs/common';
import { AssetsService, type ProducedAsset } from '../assets/assets.service';
import { Database, type Transaction } from '../database/database.service';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { WorkspaceStatuses } from '../sections/workspace-statuses.repository';
import {
  FINISHED_TASK_STATUSES,
  type TaskProgressDto,
  type TaskStatus,
} from './dto/task.dto';
import type { TaskDelivery, TaskOutcome } from './engine/task-engine';
import { TASK_KINDS, type TaskKind } from './kinds/task-kind';
import { describeTaskFailure } from './task-failure';
import { TaskMetrics } from './task-metrics';
import { TaskSettlements } from './task-settlements';
import { tasksConfig, type TasksConfig } from './tasks.config';
import {
  TasksRepository,
  type ClaimedTask,
  type TaskChange,
} from './tasks.repository';

const SETTLED: TaskOutcome = { kind: 'settled' };

/** The attempt a worker holds: the task as claimed and its number. */
interface Attempt extends ClaimedTask {
  number: number;
}

/** What the task's row holds of its results, as this attempt last wrote it. */
interface KeptSoFar {
  progress: TaskProgressDto;
  assetIds: string[];
}

/** Rolls a task's result back: the task moved on while it was made. */
class ResultsNotWanted extends Error {}

/**
 * Runs one delivered task: claims it (QUEUED, or RUNNING whose worker
 * died, becomes RUNNING with one more attempt), runs its kind's work while
 * watching for a cancel, keeps each result as the work makes it and
 * settles the task. Every move is a compare-and-set on the task's status
 * and attempt, in a transaction that also refreshes the section's and
 * agent's statuses and moves the project's version (its ETag) on:
 * whatever a page shows moves together. A result's keep also compares
 * the progress (the result's index): a result is kept once per task and
 * index, whichever worker or replica holds the task, and a retry goes on
 * from the results kept.
 */
@Injectable()
export class TaskRunner {
  private readonly logger = new Logger(TaskRunner.name);
  private readonly kinds: Map<string, TaskKind>;

  constructor(
    private readonly db: Database,
    private readonly tasks: TasksRepository,
    private readonly assets: AssetsService,
    private readonly statuses: WorkspaceStatuses,
    private readonly scope: ProjectScope,
    @Inject(TASK_KINDS) kinds: TaskKind[],
    @Inject(tasksConfig.KEY) private readonly config: TasksConfig,
    private readonly metrics: TaskMetrics,
    private readonly settlements: TaskSettlements,
  ) {
    this.kinds = new Map(kinds.map((kind) => [kind.type, kind]));
  }

  /** The engines' handler. */
  readonly handle = async (delivery: TaskDelivery): Promise<TaskOutcome> => {
    try {
      return await this.attempt(delivery);
    } finally {
      // Whatever came of it: a run waiting on the task looks again.
      this.settlements.settled({ taskId: delivery.taskId });
    }
  };

  private readonly attempt = async (
    delivery: TaskDelivery,
  ): Promise<TaskOutcome> => {
    const attempt = await this.claim(delivery.taskId);
    if (!attempt) return SETTLED;
    const cancelled = this.watchForCancel(attempt);
    const timing = this.metrics.start(attempt.task.type);
    try {
      const kept = await this.run(
        attempt,
        AbortSignal.any([delivery.signal, cancelled.signal]),
      );
      timing.end(kept ? 'succeeded' : 'cancelled');
      return SETTLED;
    } catch (error) {
      // Cancelled, deleted, or taken by another attempt: not ours to settle.
      if (cancelled.signal.aborted || error instanceof ResultsNotWanted) {
        timing.end('cancelled');
        return SETTLED;
      }
      if (delivery.signal.aborted) {
        timing.end('given_back');
        return this.giveBack(attempt);
      }
      const outcome = await this.fail(attempt, error);
      timing.end(outcome.kind === 'retry' ? 'retry' : 'failed');
      return outcome;
    } finally {
      cancelled.stop();
    }
  };

  private async claim(taskId: string): Promise<Attempt | undefined> {
    return this.db.transaction(async (transaction) => {
      const claimed = await this.tasks.claimable(transaction, taskId);
      if (!claimed) return undefined;
      const { task } = claimed;
      if ((FINISHED_TASK_STATUSES as string[]).includes(task.status)) {
        return undefined;
      }
      const expected = { statuses: [task.status], attempts: task.attempts };
      if (
        task.status === 'RUNNING' &&
        task.attempts >= this.config.maxAttempts
      ) {
        // Its last attempt's worker died (the engine delivered it again
        // once that worker's lease ran out).
        await this.move(transaction, claimed, expected, {
          status: 'FAILED',
          finished: true,
          error: {
            code: 'worker_lost',
            message: `The worker running the task stopped during its last attempt (${task.attempts} of ${this.config.maxAttempts})`,
          },
        });
        return undefined;
      }
      const number = task.attempts + 1;
      const moved = await this.move(transaction, claimed, expected, {
        status: 'RUNNING',
        attempts: number,
        started: true,
      });
      return moved ? { ...claimed, number } : undefined;
    });
  }

  /**
   * True when the task SUCCEEDED (false: it moved on meanwhile). Throws
   * the work's failure once the results made before it are kept.
   */
  private async run(attempt: Attempt, signal: AbortSignal): Promise<boolean> {
    const { task, project } = attempt;
    const kind = this.kinds.get(task.type);
    if (!kind) throw new Error(`No kind of task "${task.type}"`);
    const kept: KeptSoFar = {
      progress: task.progress,
      assetIds: task.assetIds,
    };
    // One keep at a time, in the order the work asks: each is the next index.
    let keeping: Promise<unknown> = Promise.resolve();
    const keep = (result: ProducedAsset): Promise<void> => {
      const next = keeping.then(() =>
        this.keepResult(attempt, kept, result, signal),
      );
      keeping = next.catch(() => undefined);
      return next;
    };
    // An attempt after one that kept every result only settles the task.
    if (kept.progress.done < kept.progress.total) {
      try {
        await kind.run({
          task,
          project: { id: task.projectId, ...project },
          signal,
          clientKey: `user:${project.userId}`,
          done: kept.progress.done,
          keep,
        });
      } finally {
        // What was made before a failure is kept before the task fails.
        await keeping;
      }
    }
    return this.db.transaction((transaction) =>
      this.move(
        transaction,
        attempt,
        { ...this.held(attempt), progress: kept.progress },
        { status: 'SUCCEEDED', finished: true, error: null },
      ),
    );
  }

  /**
   * In one transaction, one result kept and the task's progress moved on
   * (a task.updated and an asset.created event); rejects with
   * ResultsNotWanted, the result discarded, when the task was cancelled or
   * taken meanwhile or that index is kept already.
   */
  private async keepResult(
    attempt: Attempt,
    kept: KeptSoFar,
    result: ProducedAsset,
    signal: AbortSignal,
  ): Promise<void> {
    const { task } = attempt;
    const { done, total } = kept.progress;
    if (done >= total) {
      throw new Error(`Task ${task.id} kept all ${total} of its results`);
    }
    const staged = await this.assets.stageResult(
      { projectId: task.projectId, sectionId: task.sectionId },
      result,
      signal,
    );
    const progress = { done: done + 1, total };
    const assetIds = [...kept.assetIds, staged.id];
    const inTransaction = staged.large
      ? this.db.largeTransaction.bind(this.db)
      : this.db.transaction.bind(this.db);
    try {
      await inTransaction(async (transaction) => {
        // The row first: the move recomputes the section's status from it.
        await staged.keepIn(transaction);
        const moved = await this.move(
          transaction,
          attempt,
          { ...this.held(attempt), progress: kept.progress },
          { status: 'RUNNING', progress, assetIds },
        );
        if (!moved) throw new ResultsNotWanted();
      });
    } catch (error) {
      await staged.discard();
      throw error;
    }
    Object.assign(kept, { progress, assetIds });
    await staged.kept();
  }

  /** This process stops: the attempt is given back, uncounted, for another worker. */
  private async giveBack(attempt: Attempt): Promise<TaskOutcome> {
    await this.db.transaction((transaction) =>
      this.move(transaction, attempt, this.held(attempt), {
        status: 'QUEUED',
        attempts: attempt.number - 1,
      }),
    );
    return { kind: 'retry', delayMs: 0 };
  }

  private async fail(attempt: Attempt, error: unknown): Promise<TaskOutcome> {
    const failure = describeTaskFailure(error);
    if (failure.error.code === 'internal') {
      this.logger.error(
        `Task ${attempt.task.id} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const again = failure.retryable && attempt.number < this.config.maxAttempts;
    await this.db.transaction((transaction) =>
      this.move(
        transaction,
        attempt,
        this.held(attempt),
        again
          ? { status: 'QUEUED', error: failure.error }
          : { status: 'FAILED', finished: true, error: failure.error },
      ),
    );
    if (!again) return SETTLED;
    const backoff = this.config.retryDelayMs * 2 ** (attempt.number - 1);
    return {
      kind: 'retry',
      delayMs: Math.max(backoff, failure.retryAfterMs ?? 0),
    };
  }

  /** What the attempt holds: RUNNING at its own number. */
  private held(attempt: Attempt): { statuses: TaskStatus[]; attempts: number } {
    return { statuses: ['RUNNING'], attempts: attempt.number };
  }

  /**
   * One compare-and-set move of the task; with it, its section's and
   * agent's statuses refreshed and the project's version moved on.
   */
  private async move(
    transaction: Transaction,
    claimed: ClaimedTask,
    expected: {
      statuses: readonly TaskStatus[];
      attempts: number;
      progress?: TaskProgressDto;
    },
    change: TaskChange,
  ): Promise<boolean> {
    const { id, projectId } = claimed.task;
    // The project's row before the task's, as every change takes them: a
    // cancel (project, then task) and this move (task, then project) on
    // PostgreSQL would each hold a row the other waits for (a deadlock).
    await this.scope.hold(transaction, { projectId });
    if (!(await this.tasks.move(transaction, id, expected, change))) {
      return false;
    }
    await this.statuses.refresh(transaction, projectId);
    await this.scope.advance(transaction, {
      projectId,
      missing: () => new ProjectNotFoundException(),
    });
    return true;
  }

  /**
   * Aborts the attempt's work once its row says it is no longer this
   * attempt's (cancelled, deleted with its project, or taken again):
   * checked every TASK_CANCEL_CHECK_MS, so the upstream call is closed
   * within about that long on whichever replica runs it.
   */
  private watchForCancel(attempt: Attempt): {
    signal: AbortSignal;
    stop(): void;
  } {
    const controller = new AbortController();
    let checking = false;
    const timer = setInterval(() => {
      if (checking) return;
      checking = true;
      this.tasks
        .statusOf(attempt.task.id)
        .then((now) => {
          if (now?.status !== 'RUNNING' || now.attempts !== attempt.number) {
            controller.abort(new Error('The task was cancelled'));
          }
        })
        .catch(() => undefined)
        .finally(() => {
          checking = false;
        });
    }, this.config.cancelCheckMs);
    timer.unref();
    return { signal: controller.signal, stop: () => clearInterval(timer) };
  }
}
