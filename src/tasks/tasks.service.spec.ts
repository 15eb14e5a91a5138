import { IsOptional, IsString } from 'class-validator';
import { Test } from '@nestjs/testing';
import { AssetLimitReachedException } from '../assets/assets.errors';
import { AssetsService } from '../assets/assets.service';
import type { CallContext } from '../common/call-context';
import { newId } from '../common/ids';
import { Database } from '../database/database.service';
import { InputValidationException } from '../failures/input-validation.error';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { WorkspaceStatuses } from '../sections/workspace-statuses.repository';
import type { TaskDto, TaskStatus } from './dto/task.dto';
import { TaskEngine } from './engine/task-engine';
import { TASK_KINDS } from './kinds/task-kind';
import { encodeTaskCursor } from './task-cursor';
import { tasksConfig } from './tasks.config';
import {
  TaskExceedsAssetLimitException,
  TaskFinishedException,
  TaskNotFoundException,
  TooManyTasksError,
} from './tasks.errors';
import { TasksRepository } from './tasks.repository';
import { TasksService } from './tasks.service';
import { TaskSettlements } from './task-settlements';

const PROJECT = newId();
const TASK = newId();

const contextOf = (caller?: { userId: string; admin: boolean }) =>
  ({ caller }) as CallContext;
const ANYONE = contextOf();
const ANN = contextOf({ userId: 'ann', admin: false });
const ADMIN = contextOf({ userId: 'root', admin: true });

const taskOf = (id: string, createdAt: string, status: TaskStatus = 'QUEUED') =>
  ({ id, projectId: PROJECT, status, createdAt }) as TaskDto;

class LogoInput {
  @IsOptional()
  @IsString()
  style?: string;
}

async function build(counts = { project: 0, user: 0 }) {
  const transaction = { name: 'transaction' };
  const db = {
    transaction: jest.fn((work: (t: unknown) => unknown) => work(transaction)),
  };
  const tasks = {
    unfinishedCounts: jest.fn().mockResolvedValue(counts),
    placeOf: jest
      .fn()
      .mockResolvedValue({ agentId: 'agent-1', sectionId: 'section-1' }),
    insert: jest.fn((_t: unknown, row: { id: string }) =>
      Promise.resolve(taskOf(row.id, '2026-01-01T00:00:00.000Z')),
    ),
    page: jest.fn().mockResolvedValue([]),
    find: jest.fn().mockResolvedValue(undefined),
    findIn: jest.fn().mockResolvedValue(undefined),
    move: jest.fn().mockResolvedValue(true),
  };
  const assets = {
    room: jest.fn().mockResolvedValue({ free: 50, limit: 50 }),
  };
  const engine = {
    enqueue: jest.fn().mockResolvedValue(undefined),
    forget: jest.fn().mockResolvedValue(undefined),
  };
  const statuses = { refresh: jest.fn().mockResolvedValue(undefined) };
  const scope = {
    advance: jest.fn().mockResolvedValue('"2"'),
    ownerOf: jest.fn().mockResolvedValue('ann'),
    isVisible: jest.fn().mockResolvedValue(true),
    // The real check, over the mocked lookup above.
    assertVisible(projectId: string, owner: string | undefined) {
      return ProjectScope.prototype.assertVisible.call(this, projectId, owner);
    },
  };
  const idempotency = {
    runAnsweredByWork: jest.fn(
      (_key: unknown, _ms: number, work: () => unknown) => work(),
    ),
    answerInTransaction: jest.fn().mockResolvedValue(undefined),
  };
  const kind = {
    type: 'logo',
    agentType: 'DESIGN',
    sectionType: 'LOGO',
    input: LogoInput,
    resultsOf: jest.fn(() => 1),
    derived: false,
    accept: undefined as jest.Mock | undefined,
    run: jest.fn(),
  };
  const moduleRef = await Test.createTestingModule({
    providers: [
      TasksService,
      { provide: Database, useValue: db },
      { provide: TasksRepository, useValue: tasks },
      { provide: AssetsService, useValue: assets },
      { provide: TaskEngine, useValue: engine },
      { provide: WorkspaceStatuses, useValue: statuses },
      { provide: ProjectScope, useValue: scope },
      { provide: IdempotencyService, useValue: idempotency },
      { provide: TASK_KINDS, useValue: [kind] },
      {
        provide: tasksConfig.KEY,
        useValue: {
          ...tasksConfig({}),
          maxQueuedPerProject: 3,
          maxQueuedPerUser: 5,
        },
      },
      TaskSettlements,
    ],
  }).compile();
  const service = moduleRef.get(TasksService);
  const create = (projectId = PROJECT, context = ANYONE) =>
    service.create(projectId, { type: 'logo', input: {} }, context);
  return { service, create, tasks, assets, engine, statuses, scope, kind };
}

describe('TasksService', () => {
  describe('create', () => {
    it("queues a task in the transaction that inserts it, at its owner's backlog", async () => {
      const { create, tasks, engine } = await build({ project: 1, user: 2 });
      await create();
      expect(tasks.insert).toHaveBeenCalledWith(
        expect.anything(),
        expect.objectContaining({
          projectId: PROJECT,
          type: 'logo',
          agentId: 'agent-1',
          sectionId: 'section-1',
          queuePlace: 2,
        }),
      );
      const [[transaction, taskId, backlog]] = engine.enqueue.mock.calls as [
        [unknown, string, number],
      ];
      expect(transaction).toBe(tasks.insert.mock.calls[0][0]);
      expect(taskId).toBe(tasks.insert.mock.calls[0][1].id);
      expect(backlog).toBe(2);
    });

    it("stores what the kind's checks found with the input (a publish's gate: its page and report)", async () => {
      const { create, tasks, kind } = await build({ project: 0, user: 0 });
      kind.accept = jest.fn().mockResolvedValue({ pageId: 'p', reportId: 'r' });
      await create();
      expect(kind.accept).toHaveBeenCalledWith(PROJECT, {}, undefined);
      expect(tasks.insert).toHaveBeenCalledWith(
        expect.anything(),
        expect.objectContaining({ input: { pageId: 'p', reportId: 'r' } }),
      );
    });

    it("gives a run's step the input with what the kind's checks found, as POST …/tasks stores it", async () => {
      const { service, kind } = await build({ project: 0, user: 0 });
      kind.accept = jest.fn().mockResolvedValue({ pageId: 'p', reportId: 'r' });
      await expect(
        service.accept('logo', PROJECT, { force: true }),
      ).resolves.toEqual({ force: true, pageId: 'p', reportId: 'r' });
      kind.accept = undefined;
      await expect(
        service.accept('logo', PROJECT, { force: true }),
      ).resolves.toEqual({ force: true });
    });

    it('refuses a task over the per-project limit with 429 too_many_tasks, queueing nothing', async () => {
      const { create, tasks, engine } = await build({ project: 3, user: 3 });
      const refused = await create().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(TooManyTasksError);
      expect((refused as TooManyTasksError).message).toMatch(/^The project/);
      expect((refused as TooManyTasksError).status).toBe(429);
      expect(tasks.insert).not.toHaveBeenCalled();
      expect(engine.enqueue).not.toHaveBeenCalled();
    });

    it("refuses a task over its owner's limit across projects with 429 too_many_tasks", async () => {
      const { create, tasks } = await build({ project: 0, user: 5 });
      const refused = await create().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(TooManyTasksError);
      expect((refused as TooManyTasksError).message).toMatch(/^Its owner/);
      expect(tasks.insert).not.toHaveBeenCalled();
    });

    it('counts the unfinished tasks of the project and of its owner', async () => {
      const { create, tasks } = await build({ project: 2, user: 4 });
      await create();
      expect(tasks.unfinishedCounts).toHaveBeenCalledWith(
        expect.anything(),
        PROJECT,
        'ann',
      );
    });

    it('refuses a task for a project that holds the most assets with 409, queueing nothing', async () => {
      const { create, assets, tasks, engine } = await build();
      assets.room.mockResolvedValue({ free: 0, limit: 50 });
      await expect(create()).rejects.toBeInstanceOf(AssetLimitReachedException);
      expect(tasks.insert).not.toHaveBeenCalled();
      expect(engine.enqueue).not.toHaveBeenCalled();
    });

    it('refuses a task whose results would pass the asset limit with 409 task_exceeds_asset_limit, queueing nothing', async () => {
      const { create, assets, tasks, engine, kind } = await build();
      kind.resultsOf.mockReturnValue(3);
      assets.room.mockResolvedValue({ free: 2, limit: 50 });
      const refused = await create().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(TaskExceedsAssetLimitException);
      expect(refused).toMatchObject({ code: 'task_exceeds_asset_limit' });
      expect((refused as Error).message).toMatch(/keep 3 .* room for 2/);
      expect(tasks.insert).not.toHaveBeenCalled();
      expect(engine.enqueue).not.toHaveBeenCalled();
    });

    it('a task that fits exactly is queued with its results as its progress total', async () => {
      const { create, assets, tasks, kind } = await build();
      kind.resultsOf.mockReturnValue(3);
      assets.room.mockResolvedValue({ free: 3, limit: 50 });
      await create();
      expect(tasks.insert).toHaveBeenCalledWith(
        expect.anything(),
        expect.objectContaining({ total: 3 }),
      );
    });

    it('a task of derived files (the brand kit) needs no room: it is queued at a full project', async () => {
      const { create, assets, tasks, kind } = await build();
      kind.derived = true;
      kind.resultsOf.mockReturnValue(8);
      assets.room.mockResolvedValue({ free: 0, limit: 50 });
      await create();
      expect(assets.room).not.toHaveBeenCalled();
      expect(tasks.insert).toHaveBeenCalledWith(
        expect.anything(),
        expect.objectContaining({ total: 8 }),
      );
    });

    it('an unknown or malformed project is 404 before anything is counted', async () => {
      const { create, scope, tasks } = await build();
      await expect(create('not-an-id')).rejects.toBeInstanceOf(
        ProjectNotFoundException,
      );
      expect(scope.advance).not.toHaveBeenCalled();

      scope.advance.mockImplementation(
        (_t: unknown, { missing }: { missing: () => Error }) =>
          Promise.reject(missing()),
      );
      await expect(create()).rejects.toBeInstanceOf(ProjectNotFoundException);
      expect(tasks.unfinishedCounts).not.toHaveBeenCalled();
    });

    it("changes only the caller's own project", async () => {
      const { create, scope } = await build();
      await create(PROJECT, ANN);
      expect(scope.advance).toHaveBeenCalledWith(
        expect.anything(),
        expect.objectContaining({ projectId: PROJECT, owner: 'ann' }),
      );
    });

    it("reports the input's issues under `input`", async () => {
      const { service } = await build();
      const refused = await service
        .create(PROJECT, { type: 'logo', input: { style: 1 } }, ANYONE)
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(InputValidationException);
      expect((refused as InputValidationException).issues[0].path).toEqual([
        'input',
        'style',
      ]);
    });
  });

  describe('page', () => {
    it('is 404 for a project the caller may not read, an admin reads any', async () => {
      const { service, scope, tasks } = await build();
      scope.isVisible.mockResolvedValue(false);
      await expect(service.page(PROJECT, {}, ANN)).rejects.toBeInstanceOf(
        ProjectNotFoundException,
      );
      await expect(
        service.page('not-an-id', {}, ANYONE),
      ).rejects.toBeInstanceOf(ProjectNotFoundException);
      expect(scope.isVisible).toHaveBeenCalledWith(PROJECT, 'ann');
      expect(tasks.page).not.toHaveBeenCalled();

      scope.isVisible.mockResolvedValue(true);
      await service.page(PROJECT, {}, ADMIN);
      expect(scope.isVisible).toHaveBeenLastCalledWith(PROJECT, undefined);
    });

    it('reads one more than the page to tell whether another follows, and points the cursor at its last task', async () => {
      const { service, tasks } = await build();
      const rows = [
        taskOf(newId(), '2026-01-03T00:00:00.000Z'),
        taskOf(newId(), '2026-01-02T00:00:00.000Z'),
        taskOf(newId(), '2026-01-01T00:00:00.000Z'),
      ];
      tasks.page.mockResolvedValue(rows);
      const page = await service.page(PROJECT, { limit: 2 }, ANYONE);
      expect(tasks.page).toHaveBeenCalledWith(PROJECT, 3, undefined);
      expect(page.tasks).toEqual(rows.slice(0, 2));
      expect(page.nextCursor).toBe(
        encodeTaskCursor({
          createdAt: new Date(rows[1].createdAt),
          id: rows[1].id,
        }),
      );

      tasks.page.mockResolvedValue(rows.slice(0, 2));
      const last = await service.page(
        PROJECT,
        { limit: 2, cursor: page.nextCursor! },
        ANYONE,
      );
      expect(tasks.page).toHaveBeenLastCalledWith(PROJECT, 3, {
        createdAt: new Date(rows[1].createdAt),
        id: rows[1].id,
      });
      expect(last.nextCursor).toBeNull();
    });

    it('refuses a cursor this service did not write with 400, before any query', async () => {
      const { service, tasks, scope } = await build();
      await expect(
        service.page(PROJECT, { cursor: 'bm90LWEtY3Vyc29y' }, ANYONE),
      ).rejects.toBeInstanceOf(InputValidationException);
      expect(scope.isVisible).not.toHaveBeenCalled();
      expect(tasks.page).not.toHaveBeenCalled();
    });
  });

  describe('get', () => {
    it("finds a task only in the caller's projects (an admin's in anyone's), else 404", async () => {
      const { service, tasks } = await build();
      await expect(service.get(PROJECT, TASK, ANN)).rejects.toBeInstanceOf(
        TaskNotFoundException,
      );
      expect(tasks.find).toHaveBeenLastCalledWith(PROJECT, TASK, 'ann');

      const found = taskOf(TASK, '2026-01-01T00:00:00.000Z');
      tasks.find.mockResolvedValue(found);
      await expect(service.get(PROJECT, TASK, ADMIN)).resolves.toBe(found);
      expect(tasks.find).toHaveBeenLastCalledWith(PROJECT, TASK, undefined);
    });

    it('a malformed id is 404 without a query', async () => {
      const { service, tasks } = await build();
      await expect(service.get(PROJECT, 'nope', ANYONE)).rejects.toBeInstanceOf(
        TaskNotFoundException,
      );
      await expect(service.get('nope', TASK, ANYONE)).rejects.toBeInstanceOf(
        TaskNotFoundException,
      );
      expect(tasks.find).not.toHaveBeenCalled();
    });
  });

  describe('for runs', () => {
    it("queueIn queues in the caller's transaction, with the same limits, and moves no version itself", async () => {
      const { service, tasks, engine, scope } = await build({
        project: 0,
        user: 1,
      });
      const transaction = { name: 'run transaction' };
      await service.queueIn(transaction as never, PROJECT, 'logo', {
        style: 'modern',
      });
      expect(tasks.insert.mock.calls[0][0]).toBe(transaction);
      expect(engine.enqueue.mock.calls[0][0]).toBe(transaction);
      expect(scope.advance).not.toHaveBeenCalled();
      const full = await build({ project: 3, user: 0 });
      await expect(
        full.service.queueIn(transaction as never, PROJECT, 'logo', {}),
      ).rejects.toBeInstanceOf(TooManyTasksError);
    });

    it('validatedInput answers issues under `input`, as POST …/tasks does; knows names the types', async () => {
      const { service } = await build();
      await expect(
        service.validatedInput('logo', { style: 7 }),
      ).rejects.toMatchObject({
        issues: [expect.objectContaining({ path: ['input', 'style'] })],
      });
      await expect(
        service.validatedInput('logo', { style: 'modern' }),
      ).resolves.toEqual({ style: 'modern' });
      expect(service.knows('logo')).toBe(true);
      expect(service.knows('publish')).toBe(false);
    });

    it("cancelIn cancels in the caller's transaction and tells the listeners nothing until cancel() itself", async () => {
      const { service, tasks, statuses } = await build();
      const transaction = { name: 'run transaction' };
      await expect(
        service.cancelIn(transaction as never, PROJECT, TASK),
      ).resolves.toBe(true);
      expect(tasks.move.mock.calls[0][0]).toBe(transaction);
      expect(statuses.refresh).toHaveBeenCalledWith(transaction, PROJECT);
      tasks.move.mockResolvedValue(false);
      await expect(
        service.cancelIn(transaction as never, PROJECT, TASK),
      ).resolves.toBe(false);
    });
  });

  describe('cancel', () => {
    it('moves a queued or running task of the project to CANCELLED, refreshes the statuses, and drops its delivery', async () => {
      const { service, tasks, statuses, engine } = await build();
      const cancelled = taskOf(TASK, '2026-01-01T00:00:00.000Z', 'CANCELLED');
      tasks.find.mockResolvedValue(cancelled);
      await expect(service.cancel(PROJECT, TASK, ANN)).resolves.toBe(cancelled);
      expect(tasks.move).toHaveBeenCalledWith(
        expect.anything(),
        TASK,
        { statuses: ['QUEUED', 'RUNNING'], projectId: PROJECT },
        { status: 'CANCELLED', finished: true },
      );
      expect(statuses.refresh).toHaveBeenCalledWith(expect.anything(), PROJECT);
      expect(engine.forget).toHaveBeenCalledWith(TASK);
    });

    it('a finished task is 409 task_finished, naming its status', async () => {
      const { service, tasks, engine } = await build();
      tasks.move.mockResolvedValue(false);
      tasks.findIn.mockResolvedValue(
        taskOf(TASK, '2026-01-01T00:00:00.000Z', 'SUCCEEDED'),
      );
      const refused = await service
        .cancel(PROJECT, TASK, ANYONE)
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(TaskFinishedException);
      expect((refused as Error).message).toContain('SUCCEEDED');
      expect(engine.forget).not.toHaveBeenCalled();
    });

    it('a task not in the project is 404', async () => {
      const { service, tasks } = await build();
      tasks.move.mockResolvedValue(false);
      await expect(
        service.cancel(PROJECT, TASK, ANYONE),
      ).rejects.toBeInstanceOf(TaskNotFoundException);
      await expect(
        service.cancel(PROJECT, 'nope', ANYONE),
      ).rejects.toBeInstanceOf(TaskNotFoundException);
      await expect(service.cancel('nope', TASK, ANYONE)).rejects.toBeInstanceOf(
        ProjectNotFoundException,
      );
    });

    it("changes only the caller's own project: an admin cancels only its own", async () => {
      const { service, scope } = await build();
      await service.cancel(PROJECT, TASK, ADMIN).catch(() => undefined);
      expect(scope.advance).toHaveBeenCalledWith(
        expect.anything(),
        expect.objectContaining({ projectId: PROJECT, owner: 'root' }),
      );
    });
  });
});
