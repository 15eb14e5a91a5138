import {
  HttpException,
  Inject,
  Injectable,
  Logger,
  type OnModuleInit,
} from '@nestjs/common';
import { Database } from '../database/database.service';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { SelectionWatchers } from '../sections/selection-watchers';
import { SectionsService } from '../sections/sections.service';
import { TaskSettlements } from '../tasks/task-settlements';
import { TooManyTasksError } from '../tasks/tasks.errors';
import { TasksService } from '../tasks/tasks.service';
import { RunAssets } from './run-assets';
import {
  OPEN_RUN_STATUSES,
  readySteps,
  RUN_GRAPH,
  type RunStatus,
} from './run-graph';
import { planSettle, type SettlePlan, type SettleReads } from './run-progress';
import { runsConfig, type RunsConfig } from './runs.config';
import {
  RunsRepository,
  type RunState,
  type StoredStep,
} from './runs.repository';

/** Another advance moved the run first: this one's transaction rolls back. */
class RunMovedError extends Error {}

/** How many of a project's open runs one selection looks at. */
const RUNS_PER_SELECTION = 20;

/**
 * Moves runs on: follows each step's task, chooses results (autoChoose),
 * reads a site check's report, queues every step that is ready. Run by
 * whatever may have changed a run — a task of this process settling, a
 * selection made here, a new run — and by the sweep (run-sweeper.ts) for
 * what another process or a crash left. Every move is a compare-and-set,
 * so advancing twice, or in two processes at once, moves a run once; in
 * this process one run's advances take turns.
 */
@Injectable()
export class RunAdvancer implements OnModuleInit {
  private readonly logger = new Logger(RunAdvancer.name);
  /** Runs being advanced here, and whether another pass was asked for. */
  private readonly advancing = new Map<
    string,
    { again: boolean; done: Promise<void> }
  >();

  constructor(
    private readonly db: Database,
    private readonly runs: RunsRepository,
    private readonly scope: ProjectScope,
    private readonly tasks: TasksService,
    private readonly sections: SectionsService,
    private readonly assets: RunAssets,
    private readonly settlements: TaskSettlements,
    private readonly watchers: SelectionWatchers,
    @Inject(runsConfig.KEY) private readonly config: RunsConfig,
  ) {}

  onModuleInit(): void {
    this.settlements.listen(({ taskId }) => {
      void this.runs
        .runOfTask(taskId)
        .then((runId) => (runId ? this.advance(runId) : undefined))
        .catch((error: unknown) => this.failed('a settled task', error));
    });
    this.watchers.listen((projectId) => {
      void this.runs
        .openRunsOf(projectId, RUNS_PER_SELECTION)
        .then((ids) => Promise.all(ids.map((id) => this.advance(id))))
        .catch((error: unknown) => this.failed('a selection', error));
    });
  }

  /**
   * Advances the run until nothing more moves; a call while it is being
   * advanced asks for one more pass. Never rejects (a failure is logged;
   * the sweep tries again).
   */
  advance(runId: string): Promise<void> {
    const current = this.advancing.get(runId);
    if (current) {
      current.again = true;
      return current.done;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          await this.pass(runId);
        } while (entry.again);
      } catch (error) {
        this.failed(`run ${runId}`, error);
      } finally {
        this.advancing.delete(runId);
      }
    })();
    this.advancing.set(runId, entry);
    return entry.done;
  }

  /** Every advance in progress, for a shutdown to wait for. */
  async idle(): Promise<void> {
    await Promise.all([...this.advancing.values()].map((entry) => entry.done));
  }

  private async pass(runId: string): Promise<void> {
    let state = await this.runs.state(runId);
    if (!state) return;
    if (state.run.autoChoose && state.run.status !== 'CANCELLED') {
      if (await this.chooseResults(state)) state = await this.runs.state(runId);
      if (!state) return;
    }
    const plan = planSettle(state, await this.reads(state));
    if (plan.steps.length > 0 || plan.added.length > 0 || plan.run) {
      if (!(await this.apply(state, plan))) return;
      state = await this.runs.state(runId);
      if (!state) return;
    }
    if (!OPEN_RUN_STATUSES.includes(state.run.status)) return;
    for (const step of readySteps(state.steps)) {
      if (!(await this.queue(state, step))) return;
    }
  }

  /**
   * autoChoose: each step whose task succeeded gets its first result
   * chosen, through the selection's own service path (its checks, its
   * events); a section with a task still running is tried again later.
   */
  private async chooseResults(state: RunState): Promise<boolean> {
    let chose = false;
    for (const step of state.steps) {
      const results =
        step.task?.status === 'SUCCEEDED' ? step.task.assetIds : [];
      const section = RUN_GRAPH[step.type].section;
      const sectionId = state.sectionIds[section];
      if (
        !['QUEUED', 'RUNNING', 'WAITING'].includes(step.status) ||
        results.length === 0 ||
        sectionId === undefined ||
        results.includes(state.choices[section] ?? '')
      ) {
        continue;
      }
      try {
        await this.sections.chooseFor(
          { projectId: state.run.projectId, sectionId },
          results[0],
        );
        chose = true;
      } catch (error) {
        // In progress (another task of the section runs), or the result
        // was deleted meanwhile: the step waits; the next advance retries.
        if (!(error instanceof HttpException)) throw error;
      }
    }
    return chose;
  }

  /** What the settle needs that is read outside its transaction. */
  private async reads(state: RunState): Promise<SettleReads> {
    const { projectId } = state.run;
    const reports = new Map<number, { errors: number; reportId: string }>();
    let siteUrl: string | undefined;
    for (const step of state.steps) {
      const result =
        step.task?.status === 'SUCCEEDED' ? step.task.assetIds[0] : undefined;
      if (result === undefined) continue;
      if (step.type === 'site-check' && step.detail.errors === undefined) {
        const errors = await this.assets.reportErrors(projectId, result);
        // Unreadable: counted as no fix can shrink (run-progress.ts).
        reports.set(step.position, {
          errors: errors ?? Number.MAX_SAFE_INTEGER,
          reportId: result,
        });
      }
      if (step.type === 'publish' && state.run.siteUrl === null) {
        siteUrl =
          (await this.assets.deploymentUrl(projectId, result)) ?? siteUrl;
      }
    }
    return { reports, siteUrl, maxFixes: state.run.quote.maxFixes };
  }

  /** The plan's moves in one transaction; false when another advance moved first. */
  private async apply(state: RunState, plan: SettlePlan): Promise<boolean> {
    const { run } = state;
    try {
      await this.db.transaction(async (transaction) => {
        await this.scope.advance(transaction, {
          projectId: run.projectId,
          missing: () => new ProjectNotFoundException(),
        });
        for (const { position, from, change } of plan.steps) {
          if (
            !(await this.runs.moveStep(
              transaction,
              run.id,
              position,
              [from],
              change,
            ))
          ) {
            throw new RunMovedError();
          }
        }
        for (const added of plan.added) {
          await this.runs.insertStep(transaction, run.id, added);
        }
        if (
          plan.run &&
          !(await this.runs.moveRun(
            transaction,
            run.id,
            [plan.run.from as RunStatus],
            plan.run.change,
          ))
        ) {
          throw new RunMovedError();
        }
        await this.runs.announce(transaction, run.id);
      });
      return true;
    } catch (error) {
      if (
        error instanceof RunMovedError ||
        error instanceof ProjectNotFoundException
      ) {
        return false;
      }
      throw error;
    }
  }

  /**
   * Queues the step's task and moves the step to QUEUED in one
   * transaction: a crash between the two cannot queue it twice. False
   * when the run moved meanwhile (the caller stops this pass).
   */
  private async queue(state: RunState, step: StoredStep): Promise<boolean> {
    const { run } = state;
    const input = {
      ...(run.input[step.type] ?? {}),
      ...(step.detail.fixReportId
        ? { fixReportId: step.detail.fixReportId }
        : {}),
    };
    try {
      const checked = await this.tasks.accept(step.type, run.projectId, input);
      await this.db.transaction(async (transaction) => {
        await this.scope.advance(transaction, {
          projectId: run.projectId,
          missing: () => new ProjectNotFoundException(),
        });
        const basis = await this.runs.choicesIn(transaction, run.projectId);
        const task = await this.tasks.queueIn(
          transaction,
          run.projectId,
          step.type,
          checked,
        );
        const moved = await this.runs.moveStep(
          transaction,
          run.id,
          step.position,
          ['PENDING'],
          {
            status: 'QUEUED',
            taskId: task.id,
            detail: { ...step.detail, basis },
          },
        );
        if (!moved) throw new RunMovedError();
        await this.runs.moveRun(transaction, run.id, ['QUEUED', 'WAITING'], {
          status: 'RUNNING',
        });
        await this.runs.announce(transaction, run.id);
      });
      return true;
    } catch (error) {
      if (
        error instanceof RunMovedError ||
        error instanceof ProjectNotFoundException
      ) {
        return false;
      }
      // The owner's task limit: the step stays PENDING for a later advance.
      if (error instanceof TooManyTasksError) return false;
      if (error instanceof HttpException && error.getStatus() < 500) {
        await this.refuse(state, step, error);
        return false;
      }
      throw error;
    }
  }

  /** A step whose task the service refused (409: no chosen logo…): the run fails. */
  private async refuse(
    state: RunState,
    step: StoredStep,
    error: HttpException,
  ): Promise<void> {
    const { run } = state;
    const code = (error as { code?: string }).code ?? 'invalid_input';
    const refused = { code, message: error.message };
    await this.db
      .transaction(async (transaction) => {
        await this.scope.advance(transaction, {
          projectId: run.projectId,
          missing: () => new ProjectNotFoundException(),
        });
        if (
          !(await this.runs.moveStep(
            transaction,
            run.id,
            step.position,
            ['PENDING'],
            {
              status: 'FAILED',
              detail: { ...step.detail, refused },
            },
          ))
        ) {
          throw new RunMovedError();
        }
        for (const other of state.steps) {
          if (other.status === 'PENDING' && other.position !== step.position) {
            await this.runs.moveStep(
              transaction,
              run.id,
              other.position,
              ['PENDING'],
              { status: 'SKIPPED' },
            );
          }
        }
        await this.runs.moveRun(transaction, run.id, OPEN_RUN_STATUSES, {
          status: 'FAILED',
          error: {
            code: 'step_refused',
            message: `The ${step.type} step's task was refused (${code}): ${error.message}`,
            step: step.type,
          },
        });
        await this.runs.announce(transaction, run.id);
      })
      .catch((failure: unknown) => {
        if (!(failure instanceof RunMovedError)) throw failure;
      });
  }

  private failed(what: string, error: unknown): void {
    this.logger.error(
      `Advancing ${what} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
