import { Test } from '@nestjs/testing';
import type { CallContext } from '../common/call-context';
import { Database } from '../database/database.service';
import { InputValidationException } from '../failures/input-validation.error';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { TasksService } from '../tasks/tasks.service';
import { RunAdvancer } from './run-advancer';
import { RUN_LOGO_COLORS } from './run-defaults';
import { runsConfig } from './runs.config';
import { RunFinishedException, TooManyRunsError } from './runs.errors';
import { RunsRepository } from './runs.repository';
import { RunsService } from './runs.service';

const PROJECT = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const RUN = '019aa8f6-0a1b-7c2d-8e3f-4a5b6c7d8e9f';
const ANN = { caller: { userId: 'ann', admin: false } } as CallContext;
const KNOWN = ['logo', 'marketing-copy', 'icon-set', 'wireframe'];

async function build(open = 0) {
  const transaction = { name: 'transaction' };
  const db = {
    transaction: jest.fn((work: (t: unknown) => unknown) => work(transaction)),
  };
  const runs = {
    openCountOfUser: jest.fn().mockResolvedValue(open),
    insert: jest.fn((_t: unknown, run: { id: string }) =>
      Promise.resolve({ id: run.id }),
    ),
    stateIn: jest.fn(),
    moveStep: jest.fn().mockResolvedValue(true),
    moveRun: jest.fn().mockResolvedValue(true),
    announce: jest.fn().mockResolvedValue({ id: RUN, status: 'CANCELLED' }),
  };
  const scope = {
    nameOf: jest.fn().mockResolvedValue('Harbor Lights'),
    advance: jest.fn().mockResolvedValue(2),
    ownerOf: jest.fn().mockResolvedValue('ann'),
  };
  const tasks = {
    knows: jest.fn((type: string) => KNOWN.includes(type)),
    validatedInput: jest.fn((type: string, input: Record<string, unknown>) => {
      if (type === 'icon-set' && !Array.isArray(input.names)) {
        return Promise.reject(
          new InputValidationException([
            {
              path: ['input', 'names'],
              message: 'Required',
              code: 'invalid_type',
            },
          ]),
        );
      }
      return Promise.resolve(input);
    }),
    cancelIn: jest.fn().mockResolvedValue(true),
    forget: jest.fn().mockResolvedValue(undefined),
  };
  const advancer = { advance: jest.fn().mockResolvedValue(undefined) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      RunsService,
      { provide: Database, useValue: db },
      { provide: RunsRepository, useValue: runs },
      { provide: ProjectScope, useValue: scope },
      { provide: TasksService, useValue: tasks },
      { provide: RunAdvancer, useValue: advancer },
      { provide: runsConfig.KEY, useValue: runsConfig({}) },
    ],
  }).compile();
  return {
    service: moduleRef.get(RunsService),
    runs,
    scope,
    tasks,
    advancer,
    transaction,
  };
}

describe('RunsService', () => {
  it("stores the run with every known step by default, the logo's defaults filled in and a quote, then advances it", async () => {
    const { service, runs, advancer } = await build();
    await service.create(
      PROJECT,
      { autoChoose: true, input: { 'icon-set': { names: ['house'] } } },
      ANN,
    );
    const [[, stored]] = runs.insert.mock.calls as unknown as [
      [unknown, Record<string, unknown>],
    ];
    expect(stored).toMatchObject({
      projectId: PROJECT,
      autoChoose: true,
      steps: KNOWN,
      input: {
        logo: {
          companyName: 'Harbor Lights',
          style: 'modern',
          colors: RUN_LOGO_COLORS,
        },
        'icon-set': { names: ['house'] },
      },
      quote: { imageCalls: 2, textCalls: 2, maxFixes: 0 },
    });
    expect(advancer.advance).toHaveBeenCalledWith(stored.id);
  });

  it("keeps the logo's own fields over the defaults", async () => {
    const { service, runs } = await build();
    await service.create(
      PROJECT,
      {
        steps: ['logo'],
        input: { logo: { companyName: 'Acme', colors: ['red'] } },
      },
      ANN,
    );
    expect(runs.insert.mock.calls[0][1]).toMatchObject({
      input: {
        logo: { companyName: 'Acme', style: 'modern', colors: ['red'] },
      },
    });
  });

  it('answers every issue at once: a step without a task type, an input of no step, a step input by its type', async () => {
    const { service, runs } = await build();
    const refused = await service
      .create(
        PROJECT,
        {
          steps: ['icon-set', 'publish'],
          input: { logo: {}, 'icon-set': { names: 'cart' } },
        },
        ANN,
      )
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InputValidationException);
    expect(
      (refused as InputValidationException).issues.map((issue) => issue.path),
    ).toEqual([
      ['steps', 1],
      ['input', 'logo'],
      ['input', 'icon-set', 'names'],
    ]);
    expect(runs.insert).not.toHaveBeenCalled();
  });

  it("refuses a project that is not the caller's (404) and a run past the owner's limit (429)", async () => {
    const missing = await build();
    missing.scope.nameOf.mockResolvedValue(undefined);
    await expect(
      missing.service.create(PROJECT, {}, ANN),
    ).rejects.toBeInstanceOf(ProjectNotFoundException);
    const full = await build(2);
    await expect(
      full.service.create(PROJECT, { steps: ['logo'] }, ANN),
    ).rejects.toBeInstanceOf(TooManyRunsError);
    expect(full.runs.insert).not.toHaveBeenCalled();
    expect(full.advancer.advance).not.toHaveBeenCalled();
  });

  it("cancels every queued or running step's task with the run, skips the rest, and tells the engine after", async () => {
    const { service, runs, tasks, transaction } = await build();
    runs.stateIn.mockResolvedValue({
      run: { id: RUN, projectId: PROJECT, status: 'RUNNING' },
      steps: [
        { position: 0, status: 'SUCCEEDED', taskId: 't0' },
        { position: 1, status: 'RUNNING', taskId: 't1' },
        { position: 2, status: 'PENDING', taskId: null },
      ],
    });
    await service.cancel(PROJECT, RUN, ANN);
    expect(tasks.cancelIn).toHaveBeenCalledTimes(1);
    expect(tasks.cancelIn).toHaveBeenCalledWith(transaction, PROJECT, 't1');
    expect(runs.moveStep.mock.calls.map((call) => [call[2], call[4]])).toEqual([
      [1, { status: 'CANCELLED' }],
      [2, { status: 'SKIPPED' }],
    ]);
    expect(runs.moveRun).toHaveBeenCalledWith(
      transaction,
      RUN,
      expect.anything(),
      { status: 'CANCELLED' },
    );
    expect(tasks.forget).toHaveBeenCalledWith('t1');
  });

  it('a finished run is 409 run_finished', async () => {
    const { service, runs } = await build();
    runs.stateIn.mockResolvedValue({
      run: { id: RUN, projectId: PROJECT, status: 'SUCCEEDED' },
      steps: [],
    });
    await expect(service.cancel(PROJECT, RUN, ANN)).rejects.toBeInstanceOf(
      RunFinishedException,
    );
  });
});
