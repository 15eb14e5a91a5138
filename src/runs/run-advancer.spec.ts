import { ConflictException } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Database } from '../database/database.service';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { SelectionWatchers } from '../sections/selection-watchers';
import { SectionsService } from '../sections/sections.service';
import { TaskSettlements } from '../tasks/task-settlements';
import { TooManyTasksError } from '../tasks/tasks.errors';
import { TasksService } from '../tasks/tasks.service';
import { RunAdvancer } from './run-advancer';
import { RunAssets } from './run-assets';
import { runsConfig } from './runs.config';
import { RunsRepository, type RunState } from './runs.repository';

const PROJECT = 'project-1';

const stateOf = (steps: RunState['steps'], autoChoose = false): RunState => ({
  run: {
    id: 'run-1',
    projectId: PROJECT,
    status: 'QUEUED',
    autoChoose,
    input: { logo: { companyName: 'Acme' } },
    quote: { imageCalls: 1, textCalls: 0, maxFixes: 0 },
    siteUrl: null,
    error: null,
    createdAt: '2026-11-29T10:00:00.000Z',
    updatedAt: '2026-11-29T10:00:00.000Z',
  },
  steps,
  choices: { LOGO: null },
  sectionIds: { LOGO: 'section-logo' },
});

const pending = (position: number, type: 'logo' | 'icon-set') => ({
  position,
  type,
  attempt: 1,
  taskId: null,
  status: 'PENDING' as const,
  detail: {},
});

async function build(states: RunState[]) {
  const transaction = { name: 'transaction' };
  const db = {
    transaction: jest.fn((work: (t: unknown) => unknown) => work(transaction)),
  };
  const runs = {
    state: jest.fn(() => Promise.resolve(states.shift())),
    choicesIn: jest.fn().mockResolvedValue({ LOGO: null }),
    moveStep: jest.fn().mockResolvedValue(true),
    moveRun: jest.fn().mockResolvedValue(true),
    insertStep: jest.fn().mockResolvedValue(undefined),
    announce: jest.fn().mockResolvedValue({}),
    runOfTask: jest.fn().mockResolvedValue('run-1'),
    openRunsOf: jest.fn().mockResolvedValue(['run-1']),
  };
  const tasks = {
    accept: jest.fn((_type: string, _project: string, input: object) =>
      Promise.resolve(input),
    ),
    queueIn: jest.fn().mockResolvedValue({ id: 'task-1' }),
  };
  const sections = { chooseFor: jest.fn().mockResolvedValue({}) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      RunAdvancer,
      TaskSettlements,
      SelectionWatchers,
      { provide: Database, useValue: db },
      { provide: RunsRepository, useValue: runs },
      {
        provide: ProjectScope,
        useValue: { advance: jest.fn().mockResolvedValue(2) },
      },
      { provide: TasksService, useValue: tasks },
      { provide: SectionsService, useValue: sections },
      { provide: RunAssets, useValue: {} },
      { provide: runsConfig.KEY, useValue: runsConfig({}) },
    ],
  }).compile();
  await moduleRef.init();
  return {
    advancer: moduleRef.get(RunAdvancer),
    settlements: moduleRef.get(TaskSettlements),
    runs,
    tasks,
    sections,
    transaction,
  };
}

describe('RunAdvancer', () => {
  it("queues a ready step's task in the transaction that moves the step to QUEUED, with the choices it is made from", async () => {
    const { advancer, runs, tasks, transaction } = await build([
      stateOf([pending(0, 'logo'), pending(1, 'icon-set')]),
      stateOf([pending(0, 'logo'), pending(1, 'icon-set')]),
    ]);
    await advancer.advance('run-1');
    expect(tasks.queueIn).toHaveBeenCalledTimes(1);
    expect(tasks.queueIn).toHaveBeenCalledWith(transaction, PROJECT, 'logo', {
      companyName: 'Acme',
    });
    expect(runs.moveStep).toHaveBeenCalledWith(
      transaction,
      'run-1',
      0,
      ['PENDING'],
      {
        status: 'QUEUED',
        taskId: 'task-1',
        detail: { basis: { LOGO: null } },
      },
    );
    expect(runs.moveRun).toHaveBeenCalledWith(
      transaction,
      'run-1',
      ['QUEUED', 'WAITING'],
      {
        status: 'RUNNING',
      },
    );
  });

  it('rolls the task back when another advance moved the step first, and does not throw', async () => {
    const { advancer, runs, transaction } = await build([
      stateOf([pending(0, 'logo')]),
      stateOf([pending(0, 'logo')]),
    ]);
    runs.moveStep.mockResolvedValue(false);
    const rolledBack: unknown[] = [];
    (
      advancer as unknown as { db: { transaction: jest.Mock } }
    ).db.transaction.mockImplementation(
      async (work: (t: unknown) => Promise<unknown>) => {
        try {
          return await work(transaction);
        } catch (error) {
          rolledBack.push(error);
          throw error;
        }
      },
    );
    await expect(advancer.advance('run-1')).resolves.toBeUndefined();
    expect(rolledBack).toHaveLength(1);
    expect(runs.announce).not.toHaveBeenCalled();
  });

  it("leaves a step PENDING over the owner's task limit; fails the run when its task is refused", async () => {
    const limited = await build([
      stateOf([pending(0, 'logo')]),
      stateOf([pending(0, 'logo')]),
    ]);
    limited.tasks.queueIn.mockRejectedValue(new TooManyTasksError('user', 25));
    await limited.advancer.advance('run-1');
    expect(limited.runs.moveRun).not.toHaveBeenCalled();

    const refused = await build([
      stateOf([pending(0, 'logo')]),
      stateOf([pending(0, 'logo')]),
    ]);
    refused.tasks.queueIn.mockRejectedValue(
      Object.assign(new ConflictException('No logo is chosen'), {
        code: 'no_chosen_logo',
      }),
    );
    await refused.advancer.advance('run-1');
    expect(refused.runs.moveStep).toHaveBeenCalledWith(
      refused.transaction,
      'run-1',
      0,
      ['PENDING'],
      expect.objectContaining({ status: 'FAILED' }),
    );
    expect(refused.runs.moveRun).toHaveBeenCalledWith(
      refused.transaction,
      'run-1',
      expect.anything(),
      expect.objectContaining({
        status: 'FAILED',
        error: expect.objectContaining({ code: 'step_refused', step: 'logo' }),
      }),
    );
  });

  it("with autoChoose, chooses a succeeded step's first result through the sections' service path", async () => {
    const succeeded = {
      ...pending(0, 'logo'),
      status: 'RUNNING' as const,
      taskId: 'task-1',
      task: { status: 'SUCCEEDED', assetIds: ['a1', 'a2'], error: null },
    };
    const { advancer, sections } = await build([
      stateOf([succeeded], true),
      { ...stateOf([succeeded], true), choices: { LOGO: 'a1' } },
      {
        ...stateOf([{ ...succeeded, status: 'SUCCEEDED' }], true),
        choices: { LOGO: 'a1' },
      },
    ]);
    await advancer.advance('run-1');
    expect(sections.chooseFor).toHaveBeenCalledWith(
      { projectId: PROJECT, sectionId: 'section-logo' },
      'a1',
    );
  });

  it('advances the run of a task that settled in this process', async () => {
    const { settlements, runs } = await build([]);
    settlements.settled({ taskId: 'task-9' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs.runOfTask).toHaveBeenCalledWith('task-9');
    expect(runs.state).toHaveBeenCalledWith('run-1');
  });
});
