import {
  isNeeded,
  latestSteps,
  readySteps,
  rollUp,
  RUN_GRAPH,
  RUN_STEP_TYPES,
  type RunStepStatus,
  type RunStepType,
  type StepState,
} from './run-graph';

const step = (
  type: RunStepType,
  status: RunStepStatus,
  attempt = 1,
): StepState => ({ type, status, attempt });
const types = (steps: StepState[]) => steps.map((s) => s.type);

describe('the run graph', () => {
  it('names only known steps as needs, and has no cycle', () => {
    const visit = (type: RunStepType, path: RunStepType[]): void => {
      expect(path).not.toContain(type);
      for (const need of RUN_GRAPH[type].needs) visit(need, [...path, type]);
    };
    for (const type of RUN_STEP_TYPES) visit(type, []);
  });

  it('queues first the steps that need nothing; a need that is not a step is not waited for', () => {
    const all = RUN_STEP_TYPES.map((type) => step(type, 'PENDING'));
    expect(types(readySteps(all))).toEqual(['logo', 'marketing-copy']);
    expect(
      types(
        readySteps([step('icon-set', 'PENDING'), step('wireframe', 'PENDING')]),
      ),
    ).toEqual(['icon-set', 'wireframe']);
  });

  it('a step is ready once every need of the run SUCCEEDED, not while one waits for its choice', () => {
    const steps = [
      step('logo', 'SUCCEEDED'),
      step('marketing-copy', 'WAITING'),
      step('icon-set', 'PENDING'),
      step('brand-kit', 'PENDING'),
      step('graphics', 'PENDING'),
      step('wireframe', 'PENDING'),
    ];
    expect(types(readySteps(steps))).toEqual(['icon-set', 'brand-kit']);
    steps[1] = step('marketing-copy', 'SUCCEEDED');
    expect(types(readySteps(steps))).toEqual([
      'icon-set',
      'brand-kit',
      'graphics',
      'wireframe',
    ]);
  });

  it('publishes only once the favicon and the Open Graph image are chosen; the page waits for the logo it inlines', () => {
    const steps = [
      step('logo', 'SUCCEEDED'),
      step('marketing-copy', 'SUCCEEDED'),
      step('brand-kit', 'RUNNING'),
      step('graphics', 'SUCCEEDED'),
      step('wireframe', 'SUCCEEDED'),
      step('landing-page', 'SUCCEEDED'),
      step('site-check', 'SUCCEEDED'),
      step('publish', 'PENDING'),
    ];
    expect(types(readySteps(steps))).toEqual([]);
    steps[2] = step('brand-kit', 'SUCCEEDED');
    expect(types(readySteps(steps))).toEqual(['publish']);
    expect(
      types(
        readySteps([
          step('logo', 'RUNNING'),
          step('wireframe', 'SUCCEEDED'),
          step('landing-page', 'PENDING'),
        ]),
      ),
    ).toEqual([]);
  });

  it("reads a type's latest attempt: a fix's site check waits for the fixed page", () => {
    const steps = [
      step('landing-page', 'SUCCEEDED'),
      step('site-check', 'SUCCEEDED'),
      step('publish', 'PENDING'),
      step('landing-page', 'PENDING', 2),
      step('site-check', 'PENDING', 2),
    ];
    expect(latestSteps(steps).map((s) => `${s.type}#${s.attempt}`)).toEqual([
      'publish#1',
      'landing-page#2',
      'site-check#2',
    ]);
    expect(readySteps(steps).map((s) => `${s.type}#${s.attempt}`)).toEqual([
      'landing-page#2',
    ]);
  });

  it('tells whether a later step of the run needs a type', () => {
    const run = new Set<RunStepType>(['logo', 'icon-set']);
    expect(isNeeded('logo', run)).toBe(true);
    expect(isNeeded('icon-set', run)).toBe(false);
    expect(isNeeded('marketing-copy', run)).toBe(false);
  });

  it.each<[string, StepState[], string]>([
    ['nothing queued yet', [step('logo', 'PENDING')], 'QUEUED'],
    [
      'a task running',
      [step('logo', 'RUNNING'), step('icon-set', 'PENDING')],
      'RUNNING',
    ],
    [
      'a step ready to queue',
      [step('logo', 'SUCCEEDED'), step('icon-set', 'PENDING')],
      'RUNNING',
    ],
    [
      'only a choice left',
      [step('logo', 'WAITING'), step('icon-set', 'PENDING')],
      'WAITING',
    ],
    [
      'a step failed',
      [step('logo', 'FAILED'), step('marketing-copy', 'RUNNING')],
      'FAILED',
    ],
    ["a step's task cancelled", [step('logo', 'CANCELLED')], 'FAILED'],
    [
      'every step done or stale',
      [step('logo', 'SUCCEEDED'), step('icon-set', 'STALE')],
      'SUCCEEDED',
    ],
    [
      'an earlier attempt superseded',
      [step('site-check', 'SUCCEEDED'), step('site-check', 'SUCCEEDED', 2)],
      'SUCCEEDED',
    ],
  ])('rolls up %s as %s', (_name, steps, status) => {
    expect(rollUp(steps)).toBe(status);
  });
});
