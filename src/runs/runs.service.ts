import { Inject, Injectable } from '@nestjs/common';
import { ProjectAccess } from '../auth/project-access';
import type { CallContext } from '../common/call-context';
import { isWellFormedId, newId } from '../common/ids';
import { Database } from '../database/database.service';
import { InputValidationException } from '../failures/input-validation.error';
import type { ValidationIssue } from '../failures/validation-issue';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { TASK_PAGE_DEFAULT } from '../tasks/dto/list-tasks-query.dto';
import { newestFirstPage } from '../tasks/task-cursor';
import { TasksService } from '../tasks/tasks.service';
import type { CreateRunDto } from './dto/create-run.dto';
import type { ListRunsQuery } from './dto/list-runs-query.dto';
import type { RunDto } from './dto/run.dto';
import { RunAdvancer } from './run-advancer';
import { withRunDefaults } from './run-defaults';
import {
  ACTIVE_STEP_STATUSES,
  OPEN_RUN_STATUSES,
  RUN_STEP_TYPES,
  type RunStepType,
} from './run-graph';
import { quoteOf } from './run-quote';
import { runsConfig, type RunsConfig } from './runs.config';
import {
  RunFinishedException,
  RunNotFoundException,
  TooManyRunsError,
} from './runs.errors';
import { RunsRepository, type StoredRun } from './runs.repository';

/**
 * The run routes' rules: a run is checked whole before anything is
 * stored (its steps, each step's input by its task type's own rules, the
 * owner's limit of unfinished runs) and quoted before any model call;
 * its steps are then queued by RunAdvancer. Reads and cancels see only
 * the caller's projects.
 */
@Injectable()
export class RunsService {
  constructor(
    private readonly db: Database,
    private readonly runs: RunsRepository,
    private readonly scope: ProjectScope,
    private readonly tasks: TasksService,
    private readonly advancer: RunAdvancer,
    @Inject(runsConfig.KEY) private readonly config: RunsConfig,
  ) {}

  /** POST /api/projects/{id}/runs: 202 {run}, QUEUED; its steps queue at once. */
  async create(
    projectId: string,
    request: CreateRunDto,
    context: CallContext,
  ): Promise<RunDto> {
    const owner = ProjectAccess.of(context).changeOwner();
    if (!isWellFormedId(projectId)) throw new ProjectNotFoundException();
    const name = await this.scope.nameOf(projectId, owner);
    if (name === undefined) throw new ProjectNotFoundException();
    const steps =
      request.steps ?? RUN_STEP_TYPES.filter((type) => this.tasks.knows(type));
    const input = await this.validInputs(steps, request.input ?? {}, name);
    const quote = quoteOf(
      steps,
      input,
      steps.includes('site-check') ? this.config.maxFixes : 0,
    );
    const run = await this.db.transaction(async (transaction) => {
      await this.scope.advance(transaction, {
        projectId,
        owner,
        missing: () => new ProjectNotFoundException(),
      });
      const userId = await this.scope.ownerOf(transaction, projectId);
      const open = await this.runs.openCountOfUser(transaction, userId);
      if (open >= this.config.maxConcurrentPerUser) {
        throw new TooManyRunsError(this.config.maxConcurrentPerUser);
      }
      return this.runs.insert(transaction, {
        id: newId(),
        projectId,
        autoChoose: request.autoChoose ?? false,
        input,
        quote,
        steps,
        createdAt: new Date(),
      });
    });
    void this.advancer.advance(run.id);
    return run;
  }

  /**
   * Every step known here and each step's input valid by its task type's
   * rules (issues under `input.<type>`); the inputs with their defaults.
   */
  private async validInputs(
    steps: readonly RunStepType[],
    given: Record<string, unknown>,
    projectName: string,
  ): Promise<StoredRun['input']> {
    const issues: ValidationIssue[] = [];
    steps.forEach((type, index) => {
      if (!this.tasks.knows(type)) {
        issues.push({
          path: ['steps', index],
          message: `This service has no ${type} step`,
          code: 'invalid_enum_value',
        });
      }
    });
    for (const key of Object.keys(given)) {
      if (!steps.includes(key as RunStepType)) {
        issues.push({
          path: ['input', key],
          message: 'Not a step of this run',
          code: 'custom',
        });
      }
    }
    const input: StoredRun['input'] = {};
    for (const type of steps.filter((step) => this.tasks.knows(step))) {
      const raw = given[type] ?? {};
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        issues.push({
          path: ['input', type],
          message: 'Expected object',
          code: 'invalid_type',
        });
        continue;
      }
      try {
        input[type] = await this.tasks.validatedInput(
          type,
          withRunDefaults(type, raw as Record<string, unknown>, projectName),
        );
      } catch (error) {
        if (!(error instanceof InputValidationException)) throw error;
        // The task's issues are under `input`; a run's are under `input.<type>`.
        issues.push(
          ...error.issues.map((issue) => ({
            ...issue,
            path: ['input', type, ...issue.path.slice(1)],
          })),
        );
      }
    }
    if (issues.length > 0) throw new InputValidationException(issues);
    return input;
  }

  /** GET /api/projects/{id}/runs: a page, newest first. */
  async page(
    projectId: string,
    query: ListRunsQuery,
    context: CallContext,
  ): Promise<{ runs: RunDto[]; nextCursor: string | null }> {
    const owner = ProjectAccess.of(context).readOwner();
    const { rows, nextCursor } = await newestFirstPage(
      query,
      TASK_PAGE_DEFAULT,
      () => this.scope.assertVisible(projectId, owner),
      (limit, after) => this.runs.page(projectId, limit, after),
    );
    return { runs: rows, nextCursor };
  }

  /** GET /api/projects/{id}/runs/{runId}. */
  async get(
    projectId: string,
    runId: string,
    context: CallContext,
  ): Promise<RunDto> {
    return this.find(projectId, runId, ProjectAccess.of(context).readOwner());
  }

  /**
   * POST …/runs/{runId}/cancel: every queued or running step's task is
   * cancelled with the run, in one transaction; the steps not started are
   * SKIPPED. 409 once the run has finished.
   */
  async cancel(
    projectId: string,
    runId: string,
    context: CallContext,
  ): Promise<RunDto> {
    const owner = ProjectAccess.of(context).changeOwner();
    if (!isWellFormedId(projectId)) throw new ProjectNotFoundException();
    if (!isWellFormedId(runId)) throw new RunNotFoundException();
    const cancelled: string[] = [];
    const run = await this.db.transaction(async (transaction) => {
      await this.scope.advance(transaction, {
        projectId,
        owner,
        missing: () => new ProjectNotFoundException(),
      });
      const state = await this.runs.stateIn(transaction, runId);
      if (!state || state.run.projectId !== projectId)
        throw new RunNotFoundException();
      if (!OPEN_RUN_STATUSES.includes(state.run.status)) {
        throw new RunFinishedException(state.run.status);
      }
      for (const step of state.steps) {
        if (ACTIVE_STEP_STATUSES.includes(step.status) && step.taskId) {
          if (await this.tasks.cancelIn(transaction, projectId, step.taskId)) {
            cancelled.push(step.taskId);
            await this.runs.moveStep(
              transaction,
              runId,
              step.position,
              [step.status],
              { status: 'CANCELLED' },
            );
          }
        } else if (step.status === 'PENDING' || step.status === 'WAITING') {
          await this.runs.moveStep(
            transaction,
            runId,
            step.position,
            [step.status],
            { status: 'SKIPPED' },
          );
        }
      }
      await this.runs.moveRun(transaction, runId, OPEN_RUN_STATUSES, {
        status: 'CANCELLED',
      });
      return this.runs.announce(transaction, runId);
    });
    for (const taskId of cancelled) await this.tasks.forget(taskId);
    return run;
  }

  private async find(
    projectId: string,
    runId: string,
    owner: string | undefined,
  ): Promise<RunDto> {
    if (!isWellFormedId(projectId) || !isWellFormedId(runId)) {
      throw new RunNotFoundException();
    }
    const run = await this.runs.find(projectId, runId, owner);
    if (!run) throw new RunNotFoundException();
    return run;
  }
}
