import type { SectionType } from '../sections/sections.constants';

/**
 * Every type of step a run knows, in the graph's order. A union of its
 * own, not the task types: a step type whose task kind this build lacks
 * stays in the graph and is refused when asked for (runs.service.ts).
 */
export const RUN_STEP_TYPES = [
  'logo',
  'marketing-copy',
  'icon-set',
  'brand-kit',
  'graphics',
  'wireframe',
  'landing-page',
  'site-check',
  'publish',
] as const;
export type RunStepType = (typeof RUN_STEP_TYPES)[number];

/** One node of the graph: what it waits for, and where its results go. */
export interface RunNode {
  /** Steps whose section must hold a chosen result before this one runs. */
  needs: readonly RunStepType[];
  section: SectionType;
  /**
   * Whether the steps after it need its result chosen (a person's choice,
   * or the run's with autoChoose). A site check's report is read as kept.
   */
  chosen: boolean;
}

/**
 * The graph, as data: logo → icon-set, brand-kit, graphics;
 * marketing-copy → graphics, wireframe; wireframe → landing-page →
 * site-check (→ fixes: landing-page again, then site-check again; see
 * fix-loop.ts) → publish. The landing page also waits for the logo (it
 * inlines the chosen one) and publish for the brand kit and graphics (the
 * site's favicon and icons, its Open Graph image): read when they run,
 * they would otherwise race the steps that make them.
 */
export const RUN_GRAPH: Readonly<Record<RunStepType, RunNode>> = {
  logo: { needs: [], section: 'LOGO', chosen: true },
  'marketing-copy': { needs: [], section: 'MARKETING', chosen: true },
  'icon-set': { needs: ['logo'], section: 'ICONS', chosen: true },
  'brand-kit': { needs: ['logo'], section: 'ICONS', chosen: true },
  graphics: {
    needs: ['logo', 'marketing-copy'],
    section: 'GRAPHICS',
    chosen: true,
  },
  wireframe: { needs: ['marketing-copy'], section: 'WIREFRAME', chosen: true },
  'landing-page': {
    needs: ['wireframe', 'logo'],
    section: 'CODE',
    chosen: true,
  },
  'site-check': { needs: ['landing-page'], section: 'TESTING', chosen: false },
  publish: {
    needs: ['site-check', 'brand-kit', 'graphics'],
    section: 'DEPLOYMENT',
    chosen: true,
  },
};

export const RUN_STEP_STATUSES = [
  'PENDING',
  'QUEUED',
  'RUNNING',
  'WAITING',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
  'STALE',
  'SKIPPED',
] as const;
export type RunStepStatus = (typeof RUN_STEP_STATUSES)[number];

export const RUN_STATUSES = [
  'QUEUED',
  'RUNNING',
  'WAITING',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The statuses a run counts as unfinished in (the per-user limit, the sweep). */
export const OPEN_RUN_STATUSES: readonly RunStatus[] = [
  'QUEUED',
  'RUNNING',
  'WAITING',
];

/** A step whose task is queued or running: a cancel reaches it. */
export const ACTIVE_STEP_STATUSES: readonly RunStepStatus[] = [
  'QUEUED',
  'RUNNING',
];

/** What readiness and the roll-up read of a step. */
export interface StepState {
  type: RunStepType;
  attempt: number;
  status: RunStepStatus;
}

/** Each type's latest attempt (a fix adds attempts of landing-page and site-check). */
export function latestSteps<S extends StepState>(steps: readonly S[]): S[] {
  const latest = new Map<RunStepType, S>();
  for (const step of steps) {
    const seen = latest.get(step.type);
    if (!seen || step.attempt > seen.attempt) latest.set(step.type, step);
  }
  return steps.filter((step) => latest.get(step.type) === step);
}

/**
 * The PENDING steps that may be queued now: each need that is a step of
 * this run has SUCCEEDED (which, for a node whose result must be chosen,
 * means its section holds a chosen result). A need that is not a step of
 * the run is not waited for: the task reads whatever its section holds.
 */
export function readySteps<S extends StepState>(steps: readonly S[]): S[] {
  const latest = new Map(latestSteps(steps).map((s) => [s.type, s]));
  return [...latest.values()].filter(
    (step) =>
      step.status === 'PENDING' &&
      RUN_GRAPH[step.type].needs.every((need) => {
        const before = latest.get(need);
        return !before || before.status === 'SUCCEEDED';
      }),
  );
}

/** Whether some step of the run needs `type`'s result chosen. */
export function isNeeded(
  type: RunStepType,
  types: ReadonlySet<RunStepType>,
): boolean {
  return [...types].some((other) => RUN_GRAPH[other].needs.includes(type));
}

/**
 * The run's status from its steps' latest attempts (a CANCELLED run, or a
 * FAILED one, stays so: the caller keeps it). QUEUED until a task is
 * queued; FAILED once a step failed; RUNNING while a task is queued or
 * runs (or a ready step is about to be queued); WAITING while the only
 * thing left is a choice; SUCCEEDED when every step is done.
 */
export function rollUp(steps: readonly StepState[]): RunStatus {
  const latest = latestSteps(steps);
  const has = (status: RunStepStatus) =>
    latest.some((step) => step.status === status);
  if (has('FAILED') || has('CANCELLED')) return 'FAILED';
  if (steps.every((step) => step.status === 'PENDING')) return 'QUEUED';
  if (has('QUEUED') || has('RUNNING')) return 'RUNNING';
  if (has('PENDING') && readySteps(steps).length > 0) return 'RUNNING';
  if (has('WAITING')) return 'WAITING';
  if (has('PENDING')) return 'WAITING';
  return 'SUCCEEDED';
}
