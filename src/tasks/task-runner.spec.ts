import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AssetsService } from '../assets/assets.service';
import { Database } from '../database/database.service';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { WorkspaceStatuses } from '../sections/workspace-statuses.repository';
import type { TaskDto, TaskStatus } from './dto/task.dto';
import type { TaskOutcome } from './engine/task-engine';
import { TASK_KINDS } from './kinds/task-kind';
import { TaskMetrics } from './task-metrics';
import { TaskSettlements } from './task-settlements';
import { TaskRunner } from './task-runner';
import { tasksConfig } from './tasks.config';
import { TasksRepository, type TaskChange } from './tasks.repository';

const TASK_ID = 'task-1';
const PROJECT_ID = 'project-1';

const taskRow = (
  status: TaskStatus,
  attempts: number,
  progress = { done: 0, total: 1 },
  assetIds: string[] = [],
): TaskDto => ({
  id: TASK_ID,
  projectId: PROJECT_ID,
  type: 'logo',
  agentId: 'agent-1',
  sectionId: 'section-1',
  status,
  input: {},
  assetIds,
  progress,
  error: null,
  attempts,
  createdAt: '2026-01-01T00:00:00.000Z',
  startedAt: null,
  finishedAt: null,
});

/** A failure that says what it is, as the model clients' errors do. */
class Told extends Error {
  constructor(
    readonly code: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(code);
  }
}

async function build(
  row: TaskDto | undefined,
  options: { maxAttempts?: number; moves?: boolean } = {},
) {
  const transaction = { name: 'transaction' };
  const db = {
    transaction: jest.fn((work: (t: unknown) => unknown) => work(transaction)),
    largeTransaction: jest.fn((work: (t: unknown) => unknown) =>
      work(transaction),
    ),
  };
  const tasks = {
    claimable: jest.fn().mockResolvedValue(
      row && {
        task: row,
        project: { name: 'Acme', description: null, userId: 'user-1' },
      },
    ),
    move: jest.fn().mockResolvedValue(options.moves ?? true),
    statusOf: jest.fn().mockResolvedValue(undefined),
  };
  const staged = {
    id: 'asset-1',
    large: false,
    keepIn: jest.fn().mockResolvedValue(undefined),
    kept: jest.fn().mockResolvedValue(undefined),
    discard: jest.fn().mockResolvedValue(undefined),
  };
  let staging = 0;
  const assets = {
    stageResult: jest.fn(() =>
      Promise.resolve({ ...staged, id: `asset-${++staging}` }),
    ),
  };
  const statuses = { refresh: jest.fn().mockResolvedValue(undefined) };
  const scope = {
    hold: jest.fn().mockResolvedValue(undefined),
    advance: jest.fn().mockResolvedValue('"2"'),
  };
  // Keeps one result of each left, as a kind's work does.
  const kind = {
    type: 'logo',
    run: jest.fn(
      async (work: {
        done: number;
        task: TaskDto;
        signal: AbortSignal;
        keep(result: unknown): Promise<void>;
      }) => {
        for (let i = work.done; i < work.task.progress.total; i++) {
          await work.keep({ kind: 'logo' });
        }
      },
    ),
  };
  const end = jest.fn();
  const metrics = { start: jest.fn(() => ({ end })) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      TaskRunner,
      { provide: Database, useValue: db },
      { provide: TasksRepository, useValue: tasks },
      { provide: AssetsService, useValue: assets },
      { provide: WorkspaceStatuses, useValue: statuses },
      { provide: ProjectScope, useValue: scope },
      { provide: TASK_KINDS, useValue: [kind] },
      {
        provide: tasksConfig.KEY,
        useValue: {
          ...tasksConfig({}),
          maxAttempts: options.maxAttempts ?? 2,
          retryDelayMs: 1000,
          cancelCheckMs: 60_000,
        },
      },
      { provide: TaskMetrics, useValue: metrics },
      TaskSettlements,
    ],
  }).compile();
  const runner = moduleRef.get(TaskRunner);
  const settled: string[] = [];
  moduleRef.get(TaskSettlements).listen(({ taskId }) => settled.push(taskId));
  const handle = (signal = new AbortController().signal) =>
    runner.handle({ taskId: TASK_ID, signal });
  /** The changes the task's row was asked to make, in order. */
  const changes = () =>
    tasks.move.mock.calls.map(
      (call) =>
        [call[2], call[3]] as [
          {
            statuses: TaskStatus[];
            attempts: number;
            progress?: { done: number; total: number };
          },
          TaskChange,
        ],
    );
  return {
    handle,
    db,
    tasks,
    assets,
    staged,
    statuses,
    scope,
    kind,
    end,
    changes,
    settled,
  };
}

const SETTLED: TaskOutcome = { kind: 'settled' };

describe('TaskRunner', () => {
  it('tells the listeners of settled tasks once a delivery is handled, whatever came of it', async () => {
    const { handle, settled, kind } = await build(taskRow('QUEUED', 0));
    await handle();
    expect(settled).toEqual([TASK_ID]);
    kind.run.mockRejectedValueOnce(new Error('boom'));
    const failing = await build(taskRow('QUEUED', 0));
    failing.kind.run.mockRejectedValueOnce(new Error('boom'));
    await failing.handle();
    expect(failing.settled).toEqual([TASK_ID]);
  });

  it('claims a queued task as RUNNING with one more attempt, keeps each result with its progress as it is made, then SUCCEEDED', async () => {
    const { handle, changes, kind, staged, end } = await build(
      taskRow('QUEUED', 0, { done: 0, total: 2 }),
    );
    await expect(handle()).resolves.toEqual(SETTLED);
    const held = { statuses: ['RUNNING'], attempts: 1 };
    expect(changes()).toEqual([
      [
        { statuses: ['QUEUED'], attempts: 0 },
        { status: 'RUNNING', attempts: 1, started: true },
      ],
      [
        { ...held, progress: { done: 0, total: 2 } },
        {
          status: 'RUNNING',
          progress: { done: 1, total: 2 },
          assetIds: ['asset-1'],
        },
      ],
      [
        { ...held, progress: { done: 1, total: 2 } },
        {
          status: 'RUNNING',
          progress: { done: 2, total: 2 },
          assetIds: ['asset-1', 'asset-2'],
        },
      ],
      [
        { ...held, progress: { done: 2, total: 2 } },
        { status: 'SUCCEEDED', finished: true, error: null },
      ],
    ]);
    expect(kind.run).toHaveBeenCalledWith(
      expect.objectContaining({ clientKey: 'user:user-1', done: 0 }),
    );
    expect(staged.keepIn).toHaveBeenCalledTimes(2);
    expect(staged.kept).toHaveBeenCalledTimes(2);
    expect(staged.discard).not.toHaveBeenCalled();
    expect(end).toHaveBeenCalledWith('succeeded');
  });

  it('a retry goes on from the results kept: it is told how many, and keeps the next index only', async () => {
    const { handle, kind, changes, staged } = await build(
      taskRow('QUEUED', 1, { done: 2, total: 3 }, ['kept-1', 'kept-2']),
    );
    await handle();
    expect(kind.run).toHaveBeenCalledWith(expect.objectContaining({ done: 2 }));
    expect(staged.keepIn).toHaveBeenCalledTimes(1);
    expect(changes()[1]).toEqual([
      { statuses: ['RUNNING'], attempts: 2, progress: { done: 2, total: 3 } },
      {
        status: 'RUNNING',
        progress: { done: 3, total: 3 },
        assetIds: ['kept-1', 'kept-2', 'asset-1'],
      },
    ]);
  });

  it('an attempt after one that kept every result draws nothing and only settles the task', async () => {
    const { handle, kind, changes } = await build(
      taskRow('RUNNING', 1, { done: 1, total: 1 }, ['kept-1']),
    );
    await handle();
    expect(kind.run).not.toHaveBeenCalled();
    expect(changes()[1][1]).toEqual({
      status: 'SUCCEEDED',
      finished: true,
      error: null,
    });
  });

  it('a failure part-way keeps what was made before it and fails the task with its reason', async () => {
    const { handle, kind, changes, staged } = await build(
      taskRow('QUEUED', 1, { done: 0, total: 3 }),
    );
    kind.run.mockImplementation(async (work) => {
      await work.keep({ kind: 'logo' });
      throw new Told('refused', false);
    });
    await expect(handle()).resolves.toEqual(SETTLED);
    expect(staged.keepIn).toHaveBeenCalledTimes(1);
    expect(changes().map(([, change]) => change.status)).toEqual([
      'RUNNING',
      'RUNNING',
      'FAILED',
    ]);
    expect(changes()[2][1]).toEqual({
      status: 'FAILED',
      finished: true,
      error: { code: 'refused', message: 'refused' },
    });
  });

  it('a result the work asks to keep before failing is kept before the task fails', async () => {
    const { handle, kind, changes } = await build(
      taskRow('QUEUED', 1, { done: 0, total: 2 }),
    );
    kind.run.mockImplementation((work) => {
      // Not awaited: the failure comes while the keep is under way.
      void work.keep({ kind: 'logo' }).catch(() => undefined);
      return Promise.reject(new Told('refused', false));
    });
    await handle();
    expect(changes().map(([, change]) => change.status)).toEqual([
      'RUNNING',
      'RUNNING',
      'FAILED',
    ]);
  });

  it('a kind that keeps more results than its total is refused, nothing staged', async () => {
    const { handle, kind, assets, changes } = await build(taskRow('QUEUED', 1));
    kind.run.mockImplementation(async (work) => {
      await work.keep({ kind: 'logo' });
      await work.keep({ kind: 'logo' });
    });
    const logged = jest
      .spyOn(Logger.prototype, 'error')
      .mockImplementation(() => undefined);
    await handle();
    logged.mockRestore();
    expect(assets.stageResult).toHaveBeenCalledTimes(1);
    expect(changes()[2][1]).toMatchObject({
      status: 'FAILED',
      error: { code: 'internal' },
    });
  });

  it('every move holds the project first, then refreshes the statuses and moves the version on', async () => {
    const { handle, scope, tasks, statuses } = await build(
      taskRow('QUEUED', 0),
    );
    await handle();
    const order = (mock: jest.Mock) => mock.mock.invocationCallOrder[0];
    expect(order(scope.hold)).toBeLessThan(order(tasks.move));
    expect(order(tasks.move)).toBeLessThan(order(statuses.refresh));
    expect(order(statuses.refresh)).toBeLessThan(order(scope.advance));
    // The claim, the one result's keep, the success.
    expect(scope.advance).toHaveBeenCalledTimes(3);
  });

  it('a vanished or finished task is settled without running', async () => {
    for (const row of [
      undefined,
      taskRow('SUCCEEDED', 1),
      taskRow('FAILED', 2),
      taskRow('CANCELLED', 0),
    ]) {
      const { handle, kind, tasks } = await build(row);
      await expect(handle()).resolves.toEqual(SETTLED);
      expect(kind.run).not.toHaveBeenCalled();
      expect(tasks.move).not.toHaveBeenCalled();
    }
  });

  it('a task another worker claimed first is not run', async () => {
    const { handle, kind } = await build(taskRow('QUEUED', 0), {
      moves: false,
    });
    await expect(handle()).resolves.toEqual(SETTLED);
    expect(kind.run).not.toHaveBeenCalled();
  });

  it('a task whose worker is lost goes back to the line once, then fails', async () => {
    // Delivered again while RUNNING after its first attempt: a second one.
    const lostOnce = await build(taskRow('RUNNING', 1));
    await lostOnce.handle();
    expect(lostOnce.changes()[0]).toEqual([
      { statuses: ['RUNNING'], attempts: 1 },
      { status: 'RUNNING', attempts: 2, started: true },
    ]);
    expect(lostOnce.kind.run).toHaveBeenCalledTimes(1);

    // Lost during its last attempt: FAILED with worker_lost, not run.
    const lostLast = await build(taskRow('RUNNING', 2));
    await expect(lostLast.handle()).resolves.toEqual(SETTLED);
    expect(lostLast.kind.run).not.toHaveBeenCalled();
    expect(lostLast.changes()).toEqual([
      [
        { statuses: ['RUNNING'], attempts: 2 },
        {
          status: 'FAILED',
          finished: true,
          error: {
            code: 'worker_lost',
            message: expect.stringContaining('2 of 2') as string,
          },
        },
      ],
    ]);
  });

  it('a retryable failure before the last attempt queues the task again, backing off by doubling', async () => {
    const first = await build(taskRow('QUEUED', 0));
    first.kind.run.mockRejectedValue(new Told('upstream_error', true));
    await expect(first.handle()).resolves.toEqual({
      kind: 'retry',
      delayMs: 1000,
    });
    expect(first.changes()[1]).toEqual([
      { statuses: ['RUNNING'], attempts: 1 },
      {
        status: 'QUEUED',
        error: { code: 'upstream_error', message: 'upstream_error' },
      },
    ]);
    expect(first.end).toHaveBeenCalledWith('retry');

    const third = await build(taskRow('QUEUED', 2), { maxAttempts: 5 });
    third.kind.run.mockRejectedValue(new Told('upstream_error', true));
    await expect(third.handle()).resolves.toEqual({
      kind: 'retry',
      delayMs: 4000,
    });
  });

  it("a retry waits no less than the provider's Retry-After", async () => {
    const { handle, kind } = await build(taskRow('QUEUED', 0));
    kind.run.mockRejectedValue(new Told('busy', true, 30_000));
    await expect(handle()).resolves.toEqual({
      kind: 'retry',
      delayMs: 30_000,
    });
  });

  it('a failure on the last attempt, or one that is not retryable, fails the task for good', async () => {
    const last = await build(taskRow('QUEUED', 1));
    last.kind.run.mockRejectedValue(new Told('upstream_error', true));
    await expect(last.handle()).resolves.toEqual(SETTLED);
    expect(last.changes()[1][1]).toEqual({
      status: 'FAILED',
      finished: true,
      error: { code: 'upstream_error', message: 'upstream_error' },
    });
    expect(last.end).toHaveBeenCalledWith('failed');

    const refused = await build(taskRow('QUEUED', 0));
    refused.kind.run.mockRejectedValue(new Told('refused', false));
    await expect(refused.handle()).resolves.toEqual(SETTLED);
    expect(refused.changes()[1][1]).toMatchObject({ status: 'FAILED' });
  });

  it('our own failure is told to the client without its detail, which is logged', async () => {
    const logged = jest
      .spyOn(Logger.prototype, 'error')
      .mockImplementation(() => undefined);
    const { handle, kind, changes } = await build(taskRow('QUEUED', 1));
    kind.run.mockRejectedValue(new Error('SQLITE_BUSY: database is locked'));
    await handle();
    expect(changes()[1][1].error).toEqual({
      code: 'internal',
      message: 'The task failed',
    });
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('SQLITE_BUSY'));
    logged.mockRestore();
  });

  it('a stopping worker gives its attempt back uncounted, for another worker at once', async () => {
    const stopping = new AbortController();
    const { handle, kind, changes, end } = await build(taskRow('QUEUED', 0));
    kind.run.mockImplementation(() => {
      stopping.abort();
      return Promise.reject(new Error('aborted'));
    });
    await expect(handle(stopping.signal)).resolves.toEqual({
      kind: 'retry',
      delayMs: 0,
    });
    expect(changes()[1]).toEqual([
      { statuses: ['RUNNING'], attempts: 1 },
      { status: 'QUEUED', attempts: 0 },
    ]);
    expect(end).toHaveBeenCalledWith('given_back');
  });

  it('a result made while the task moved on (cancelled, taken, that index kept) is discarded, not kept, and the task not settled', async () => {
    const { handle, tasks, staged, end, changes } = await build(
      taskRow('QUEUED', 0),
    );
    tasks.move.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    await expect(handle()).resolves.toEqual(SETTLED);
    expect(staged.discard).toHaveBeenCalledTimes(1);
    expect(staged.kept).not.toHaveBeenCalled();
    expect(changes()).toHaveLength(2);
    expect(end).toHaveBeenCalledWith('cancelled');
  });

  it('a result that could not be kept is discarded and the attempt fails as any failure does', async () => {
    const { handle, staged, changes } = await build(taskRow('QUEUED', 0));
    staged.keepIn.mockRejectedValue(new Told('asset_limit', false));
    await expect(handle()).resolves.toEqual(SETTLED);
    expect(staged.discard).toHaveBeenCalledTimes(1);
    expect(changes()[1][1]).toMatchObject({
      status: 'FAILED',
      error: { code: 'asset_limit' },
    });
  });

  it('large results are kept in a large transaction', async () => {
    const { handle, staged, db } = await build(taskRow('QUEUED', 0));
    staged.large = true;
    await handle();
    expect(db.largeTransaction).toHaveBeenCalledTimes(1);
  });

  it('an attempt whose row no longer says it is running is aborted, and not settled by the runner', async () => {
    jest.useFakeTimers();
    try {
      const { handle, kind, tasks, changes, end } = await build(
        taskRow('QUEUED', 0),
      );
      tasks.statusOf.mockResolvedValue({ status: 'CANCELLED', attempts: 1 });
      kind.run.mockImplementation(
        ({ signal }: { signal: AbortSignal }) =>
          new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () =>
              reject(new Error('aborted')),
            ),
          ),
      );
      const outcome = handle();
      await jest.advanceTimersByTimeAsync(60_000);
      await expect(outcome).resolves.toEqual(SETTLED);
      expect(changes()).toHaveLength(1);
      expect(end).toHaveBeenCalledWith('cancelled');
    } finally {
      jest.useRealTimers();
    }
  });
});
