import { Inject, Injectable } from '@nestjs/common';
import { AssetLimitReachedException } from '../assets/assets.errors';
import { AssetsService } from '../assets/assets.service';
import { ProjectAccess } from '../auth/project-access';
import type { CallContext } from '../common/call-context';
import { isWellFormedId, newId } from '../common/ids';
import { AppValidationPipe } from '../common/validation/app-validation.pipe';
import { Database, type Transaction } from '../database/database.service';
import { InputValidationException } from '../failures/input-validation.error';
import type { IdempotentRequest } from '../idempotency/idempotency-key.decorator';
import { IdempotencyService } from '../idempotency/idempotency.service';
import type { Replayed } from '../idempotency/replayed';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { WorkspaceStatuses } from '../sections/workspace-statuses.repository';
import type { CreateTaskDto } from './dto/create-task.dto';
import type { ListTasksQuery } from './dto/list-tasks-query.dto';
import { TASK_PAGE_DEFAULT } from './dto/list-tasks-query.dto';
import type { TaskDto } from './dto/task.dto';
import { TaskEngine } from './engine/task-engine';
import { TASK_KINDS, type TaskKind } from './kinds/task-kind';
import { newestFirstPage } from './task-cursor';
import {
  TaskExceedsAssetLimitException,
  TaskFinishedException,
  TaskNotFoundException,
  TooManyTasksError,
} from './tasks.errors';
import { tasksConfig, type TasksConfig } from './tasks.config';
import { TasksRepository } from './tasks.repository';
import { TaskSettlements } from './task-settlements';

/** How long an Idempotency-Key is held while its task is being queued. */
const CREATE_LEASE_MS = 30_000;

const validation = new AppValidationPipe();

/**
 * The task routes' rules: a task is queued in the transaction that
 * inserts it (so a 202 is never lost), within the project's and its
 * owner's limits; reads and cancels see only the caller's projects.
 */
@Injectable()
export class TasksService {
  private readonly kinds: Map<string, TaskKind>;

  constructor(
    private readonly db: Database,
    private readonly tasks: TasksRepository,
    private readonly assets: AssetsService,
    private readonly engine: TaskEngine,
    private readonly statuses: WorkspaceStatuses,
    private readonly scope: ProjectScope,
    private readonly idempotency: IdempotencyService,
    @Inject(TASK_KINDS) kinds: TaskKind[],
    @Inject(tasksConfig.KEY) private readonly config: TasksConfig,
    private readonly settlements: TaskSettlements,
  ) {
    this.kinds = new Map(kinds.map((kind) => [kind.type, kind]));
  }

  /** POST /api/projects/{id}/tasks: 202 {task}, or the Idempotency-Key's replay. */
  async create(
    projectId: string,
    request: CreateTaskDto,
    context: CallContext,
    key?: IdempotentRequest<TaskDto>,
  ): Promise<TaskDto | Replayed> {
    const owner = ProjectAccess.of(context).changeOwner();
    const kind = this.kinds.get(request.type);
    if (!kind) throw new Error(`No kind of task "${request.type}"`);
    const input = await this.validInput(kind, request.input ?? {});
    if (!isWellFormedId(projectId)) throw new ProjectNotFoundException();
    // What the checks found is stored with the input (the client's own
    // fields were validated and whitelisted above).
    const checked = {
      ...input,
      ...((await kind.accept?.(projectId, input, owner)) ?? {}),
    };
    const queue = () => this.queue(projectId, kind, checked, owner, key);
    if (!key) return queue();
    return this.idempotency.runAnsweredByWork(key, CREATE_LEASE_MS, queue);
  }

  private async queue(
    projectId: string,
    kind: TaskKind,
    input: Record<string, unknown>,
    owner: string | undefined,
    key: IdempotentRequest<TaskDto> | undefined,
  ): Promise<TaskDto> {
    return this.db.transaction(async (transaction) => {
      await this.scope.advance(transaction, {
        projectId,
        owner,
        missing: () => new ProjectNotFoundException(),
      });
      const task = await this.insertQueued(transaction, projectId, kind, input);
      if (key) {
        await this.idempotency.answerInTransaction(transaction, key, task);
      }
      return task;
    });
  }

  /**
   * Queues a task of `type` in the caller's transaction, which has moved
   * the project's version on already: the create path of POST …/tasks
   * (the kind's rules, the limits, the room), for work that queues a task
   * with its own change (a run's step). `input` is valid already
   * (validatedInput) and accepted (accept).
   */
  async queueIn(
    transaction: Transaction,
    projectId: string,
    type: string,
    input: Record<string, unknown>,
  ): Promise<TaskDto> {
    return this.insertQueued(transaction, projectId, this.kindOf(type), input);
  }

  /** Whether this service has a task type of that name. */
  knows(type: string): boolean {
    return this.kinds.has(type);
  }

  /**
   * `input` as a task of `type` takes it, validated as POST …/tasks
   * validates it (issues under `input`).
   */
  async validatedInput(
    type: string,
    input: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    return this.validInput(this.kindOf(type), input);
  }

  /**
   * The kind's checks of a valid input that read the database (a
   * referenced asset, publish's gate): the input to queue, with what the
   * checks found (as POST …/tasks stores it).
   */
  async accept(
    type: string,
    projectId: string,
    input: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const found = await this.kindOf(type).accept?.(projectId, input, undefined);
    return { ...input, ...(found ?? {}) };
  }

  private kindOf(type: string): TaskKind {
    const kind = this.kinds.get(type);
    if (!kind) throw new Error(`No kind of task "${type}"`);
    return kind;
  }

  private async insertQueued(
    transaction: Transaction,
    projectId: string,
    kind: TaskKind,
    input: Record<string, unknown>,
  ): Promise<TaskDto> {
    // A kind's own rules on the project (409), and its input made whole.
    const taskInput = kind.prepare
      ? await kind.prepare(transaction, projectId, input)
      : input;
    const userId = await this.scope.ownerOf(transaction, projectId);
    const unfinished = await this.tasks.unfinishedCounts(
      transaction,
      projectId,
      userId,
    );
    if (unfinished.project >= this.config.maxQueuedPerProject) {
      throw new TooManyTasksError('project', this.config.maxQueuedPerProject);
    }
    if (unfinished.user >= this.config.maxQueuedPerUser) {
      throw new TooManyTasksError('user', this.config.maxQueuedPerUser);
    }
    const total = kind.resultsOf?.(taskInput) ?? 1;
    if (!kind.derived) await this.assertRoom(transaction, projectId, total);
    const place = await this.tasks.placeOf(
      transaction,
      projectId,
      kind.agentType,
      kind.sectionType,
    );
    const task = await this.tasks.insert(transaction, {
      id: newId(),
      projectId,
      type: kind.type,
      ...place,
      input: taskInput,
      createdAt: new Date(),
      queuePlace: unfinished.user,
      total,
    });
    await this.engine.enqueue(transaction, task.id, unfinished.user);
    return task;
  }

  /**
   * 409 unless the project has room for every result the task keeps, so
   * that nothing is drawn that could not be kept: asset_limit_reached when
   * it is full already (as a kept logo is told), task_exceeds_asset_limit
   * when it has room for fewer. Tasks queued beside it are not counted:
   * the later to keep finds the room gone and fails asset_limit, keeping
   * what fitted.
   */
  private async assertRoom(
    transaction: Transaction,
    projectId: string,
    results: number,
  ): Promise<void> {
    const { free, limit } = await this.assets.room(transaction, projectId);
    if (free === 0) throw new AssetLimitReachedException(limit);
    if (results > free) throw new TaskExceedsAssetLimitException(results, free);
  }

  /** GET /api/projects/{id}/tasks: a page, newest first. */
  async page(
    projectId: string,
    query: ListTasksQuery,
    context: CallContext,
  ): Promise<{ tasks: TaskDto[]; nextCursor: string | null }> {
    const owner = ProjectAccess.of(context).readOwner();
    const { rows, nextCursor } = await newestFirstPage(
      query,
      TASK_PAGE_DEFAULT,
      () => this.scope.assertVisible(projectId, owner),
      (limit, after) => this.tasks.page(projectId, limit, after),
    );
    return { tasks: rows, nextCursor };
  }

  /** GET /api/projects/{id}/tasks/{taskId}. */
  async get(
    projectId: string,
    taskId: string,
    context: CallContext,
  ): Promise<TaskDto> {
    return this.find(projectId, taskId, ProjectAccess.of(context).readOwner());
  }

  /**
   * POST …/tasks/{taskId}/cancel: CANCELLED at once (a queued task never
   * runs; a running one's worker sees it within TASK_CANCEL_CHECK_MS and
   * closes its upstream call); 409 once it has finished.
   */
  async cancel(
    projectId: string,
    taskId: string,
    context: CallContext,
  ): Promise<TaskDto> {
    const owner = ProjectAccess.of(context).changeOwner();
    if (!isWellFormedId(projectId)) throw new ProjectNotFoundException();
    if (!isWellFormedId(taskId)) throw new TaskNotFoundException();
    await this.db.transaction(async (transaction) => {
      await this.scope.advance(transaction, {
        projectId,
        owner,
        missing: () => new ProjectNotFoundException(),
      });
      if (!(await this.cancelIn(transaction, projectId, taskId))) {
        const task = await this.tasks.findIn(transaction, projectId, taskId);
        if (!task) throw new TaskNotFoundException();
        throw new TaskFinishedException(task.status);
      }
    });
    await this.engine.forget(taskId);
    this.settlements.settled({ projectId, taskId });
    return this.find(projectId, taskId, undefined);
  }

  /**
   * Cancels a queued or running task in the caller's transaction (which
   * moved the project's version on), its section's status with it; false
   * when it had finished. The caller tells the engine (forget) once it
   * has committed.
   */
  async cancelIn(
    transaction: Transaction,
    projectId: string,
    taskId: string,
  ): Promise<boolean> {
    const moved = await this.tasks.move(
      transaction,
      taskId,
      { statuses: ['QUEUED', 'RUNNING'], projectId },
      { status: 'CANCELLED', finished: true },
    );
    if (moved) await this.statuses.refresh(transaction, projectId);
    return moved;
  }

  /** The engine forgets a cancelled task (after its cancel committed). */
  forget(taskId: string): Promise<void> {
    return this.engine.forget(taskId);
  }

  private async find(
    projectId: string,
    taskId: string,
    owner: string | undefined,
  ): Promise<TaskDto> {
    if (!isWellFormedId(projectId) || !isWellFormedId(taskId)) {
      throw new TaskNotFoundException();
    }
    const task = await this.tasks.find(projectId, taskId, owner);
    if (!task) throw new TaskNotFoundException();
    return task;
  }

  /** The type's input, validated as a request body is; issues under `input`. */
  private async validInput(
    kind: TaskKind,
    input: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    try {
      const valid = (await validation.transform(input, {
        type: 'body',
        metatype: kind.input,
      })) as object;
      return { ...valid };
    } catch (error) {
      if (!(error instanceof InputValidationException)) throw error;
      throw new InputValidationException(
        error.issues.map((issue) => ({
          ...issue,
          path: ['input', ...issue.path],
        })),
      );
    }
  }
}
