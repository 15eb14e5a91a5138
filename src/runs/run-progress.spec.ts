import type { RunStepStatus, RunStepType } from './run-graph';
import { planSettle, type SettleReads } from './run-progress';
import type { RunState, StepDetail, StoredStep } from './runs.repository';

let position = 0;
const step = (
  type: RunStepType,
  status: RunStepStatus,
  task?: { status: string; assetIds?: string[] },
  detail: StepDetail = {},
  attempt = 1,
): StoredStep => ({
  position: position++,
  type,
  attempt,
  taskId: task ? `task-${position}` : null,
  status,
  detail,
  ...(task
    ? {
        task: {
          status: task.status,
          assetIds: task.assetIds ?? [],
          error: null,
        },
      }
    : {}),
});

const state = (
  steps: StoredStep[],
  options: {
    autoChoose?: boolean;
    choices?: Record<string, string | null>;
    force?: boolean;
    status?: RunState['run']['status'];
  } = {},
): RunState => ({
  run: {
    id: 'run',
    projectId: 'project',
    status: options.status ?? 'RUNNING',
    autoChoose: options.autoChoose ?? false,
    input: options.force ? { publish: { force: true } } : {},
    quote: { imageCalls: 0, textCalls: 0, maxFixes: 2 },
    siteUrl: null,
    error: null,
    createdAt: '2026-11-29T10:00:00.000Z',
    updatedAt: '2026-11-29T10:00:00.000Z',
  },
  steps,
  choices: options.choices ?? {},
  sectionIds: {},
});

const reads = (
  reports: Array<[number, number, string]> = [],
  siteUrl?: string,
): SettleReads => ({
  reports: new Map(
    reports.map(([at, errors, reportId]) => [at, { errors, reportId }]),
  ),
  siteUrl,
  maxFixes: 2,
});

const moves = (plan: ReturnType<typeof planSettle>) =>
  plan.steps.map((move) => [move.position, move.change.status]);

beforeEach(() => {
  position = 0;
});

describe('settling a run', () => {
  it('steps follow their tasks; the run is RUNNING while one runs', () => {
    const plan = planSettle(
      state(
        [
          step('logo', 'QUEUED', { status: 'RUNNING' }),
          step('marketing-copy', 'QUEUED', { status: 'QUEUED' }),
        ],
        { status: 'QUEUED' },
      ),
      reads(),
    );
    expect(moves(plan)).toEqual([[0, 'RUNNING']]);
    expect(plan.run?.change).toEqual({ status: 'RUNNING' });
  });

  it('without autoChoose, a result a later step needs WAITs for a choice, and the run with it', () => {
    const logo = step(
      'logo',
      'RUNNING',
      { status: 'SUCCEEDED', assetIds: ['a1', 'a2'] },
      { basis: { LOGO: null } },
    );
    const plan = planSettle(
      state([logo, step('icon-set', 'PENDING')], { choices: { LOGO: null } }),
      reads(),
    );
    expect(moves(plan)).toEqual([[0, 'WAITING']]);
    expect(plan.run?.change.status).toBe('WAITING');
  });

  it('a choice of one of its results, or of another than the section held before, ends the wait', () => {
    const waiting = () =>
      step(
        'logo',
        'WAITING',
        { status: 'SUCCEEDED', assetIds: ['a1', 'a2'] },
        { basis: { LOGO: 'old' } },
      );
    for (const chosen of ['a2', 'older']) {
      position = 0;
      const plan = planSettle(
        state([waiting(), step('icon-set', 'PENDING')], {
          status: 'WAITING',
          choices: { LOGO: chosen },
        }),
        reads(),
      );
      expect(moves(plan)).toEqual([[0, 'SUCCEEDED']]);
      expect(plan.run?.change.status).toBe('RUNNING');
    }
    position = 0;
    const unchanged = planSettle(
      state([waiting(), step('icon-set', 'PENDING')], {
        status: 'WAITING',
        choices: { LOGO: 'old' },
      }),
      reads(),
    );
    expect(unchanged).toEqual({ steps: [], added: [] });
  });

  it("a result nothing needs is not waited for without autoChoose; with it, until it is the section's choice", () => {
    const make = () =>
      step('icon-set', 'RUNNING', { status: 'SUCCEEDED', assetIds: ['i1'] });
    expect(moves(planSettle(state([make()]), reads()))).toEqual([
      [0, 'SUCCEEDED'],
    ]);
    position = 0;
    expect(
      moves(planSettle(state([make()], { autoChoose: true }), reads())),
    ).toEqual([[0, 'WAITING']]);
    position = 0;
    const chosen = planSettle(
      state([make()], { autoChoose: true, choices: { ICONS: 'i1' } }),
      reads(),
    );
    expect(moves(chosen)).toEqual([[0, 'SUCCEEDED']]);
    expect(chosen.run?.change.status).toBe('SUCCEEDED');
  });

  it('a failed task fails the run, naming the step; its pending steps are SKIPPED', () => {
    const failed = step('logo', 'RUNNING', { status: 'FAILED' });
    failed.task!.error = { code: 'refused', message: 'no' };
    const plan = planSettle(
      state([
        failed,
        step('marketing-copy', 'RUNNING', { status: 'RUNNING' }),
        step('icon-set', 'PENDING'),
      ]),
      reads(),
    );
    expect(moves(plan)).toEqual([
      [0, 'FAILED'],
      [2, 'SKIPPED'],
    ]);
    expect(plan.run?.change).toMatchObject({
      status: 'FAILED',
      error: { code: 'step_failed', step: 'logo' },
    });
  });

  it('a finished run lets its running steps finish without waiting for choices', () => {
    const plan = planSettle(
      state(
        [
          step('logo', 'FAILED'),
          step('marketing-copy', 'RUNNING', {
            status: 'SUCCEEDED',
            assetIds: ['m'],
          }),
        ],
        {
          status: 'FAILED',
          autoChoose: true,
        },
      ),
      reads(),
    );
    expect(moves(plan)).toEqual([[1, 'SUCCEEDED']]);
    expect(plan.run).toBeUndefined();
  });

  it('a step made from a choice that changed since is STALE, and not run again', () => {
    const plan = planSettle(
      state(
        [
          step('logo', 'SUCCEEDED', { status: 'SUCCEEDED', assetIds: ['a1'] }),
          step(
            'icon-set',
            'SUCCEEDED',
            { status: 'SUCCEEDED', assetIds: ['i1'] },
            { basis: { LOGO: 'a1', ICONS: null } },
          ),
        ],
        { choices: { LOGO: 'a2', ICONS: 'i1' } },
      ),
      reads(),
    );
    expect(moves(plan)).toEqual([[1, 'STALE']]);
    expect(plan.run?.change.status).toBe('SUCCEEDED');
  });

  it('a site check with errors adds a fix: the page again with the report, then another check', () => {
    const plan = planSettle(
      state([
        step('landing-page', 'SUCCEEDED', {
          status: 'SUCCEEDED',
          assetIds: ['p1'],
        }),
        step('site-check', 'RUNNING', {
          status: 'SUCCEEDED',
          assetIds: ['r1'],
        }),
        step('publish', 'PENDING'),
      ]),
      reads([[1, 3, 'r1']]),
    );
    expect(plan.steps.at(-1)?.change.detail).toMatchObject({
      errors: 3,
      reportId: 'r1',
      decided: true,
    });
    expect(plan.added).toEqual([
      {
        position: 3,
        type: 'landing-page',
        attempt: 2,
        detail: { fixReportId: 'r1' },
      },
      { position: 4, type: 'site-check', attempt: 2, detail: {} },
    ]);
    // The fix is ready: the run stays RUNNING.
    expect(plan.run).toBeUndefined();
  });

  it('errors that do not shrink stop the run site_check_failed, unless publish is forced', () => {
    const steps = () => [
      step(
        'site-check',
        'SUCCEEDED',
        { status: 'SUCCEEDED', assetIds: ['r1'] },
        { errors: 2, reportId: 'r1', decided: true },
      ),
      step(
        'site-check',
        'RUNNING',
        { status: 'SUCCEEDED', assetIds: ['r2'] },
        {},
        2,
      ),
      step('publish', 'PENDING'),
    ];
    const stopped = planSettle(state(steps()), reads([[1, 2, 'r2']]));
    expect(plan(stopped)).toEqual({
      added: 0,
      status: 'FAILED',
      code: 'site_check_failed',
    });
    expect(moves(stopped)).toContainEqual([2, 'SKIPPED']);
    position = 0;
    const forced = planSettle(
      state(steps(), { force: true }),
      reads([[1, 2, 'r2']]),
    );
    // Publish is ready: the run goes on, RUNNING as it was.
    expect(plan(forced)).toEqual({
      added: 0,
      status: undefined,
      code: undefined,
    });
    expect(moves(forced)).not.toContainEqual([2, 'SKIPPED']);
  });

  it("takes the site's address from the publish step", () => {
    const plan = planSettle(
      state([
        step('publish', 'RUNNING', { status: 'SUCCEEDED', assetIds: ['d1'] }),
      ]),
      reads([], 'https://sites.example/acme/v1/'),
    );
    expect(plan.run?.change).toEqual({
      status: 'SUCCEEDED',
      siteUrl: 'https://sites.example/acme/v1/',
    });
  });
});

const plan = (settle: ReturnType<typeof planSettle>) => ({
  added: settle.added.length,
  status: settle.run?.change.status,
  code: settle.run?.change.error?.code,
});
