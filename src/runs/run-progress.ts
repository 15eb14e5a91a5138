import type { RunErrorDto } from './dto/run.dto';
import { afterSiteCheck } from './fix-loop';
import {
  isNeeded,
  latestSteps,
  rollUp,
  RUN_GRAPH,
  type RunStepStatus,
  type RunStepType,
} from './run-graph';
import type {
  RunChange,
  RunState,
  StepChange,
  StepDetail,
  StoredStep,
} from './runs.repository';

/** What a settle of the run writes, as compare-and-sets. */
export interface SettlePlan {
  steps: Array<{ position: number; from: RunStepStatus; change: StepChange }>;
  added: Array<{
    position: number;
    type: RunStepType;
    attempt: number;
    detail: StepDetail;
  }>;
  run?: { from: string; change: RunChange };
}

/** What was read outside the transaction: site checks' reports, the site's address. */
export interface SettleReads {
  /** By a site-check step's position: its report's error count and id. */
  reports: ReadonlyMap<number, { errors: number; reportId: string }>;
  /** The publish step's deployment's url, when it succeeded. */
  siteUrl?: string;
  maxFixes: number;
}

const FROM_TASK: Record<string, RunStepStatus> = {
  QUEUED: 'QUEUED',
  RUNNING: 'RUNNING',
  FAILED: 'FAILED',
  CANCELLED: 'CANCELLED',
};

/** A step whose task holds its state (queued, running, or waiting for a choice). */
const TRACKED: readonly RunStepStatus[] = ['QUEUED', 'RUNNING', 'WAITING'];

/**
 * A step whose task SUCCEEDED waits (WAITING) while its result must be
 * chosen and is not: with autoChoose every step's (the run chooses it);
 * without, a node's the run's later steps need. A choice counts when it
 * is one of the step's results, or (without autoChoose) any other than
 * the section held when the step was queued: a person may prefer an
 * older result.
 */
function chosen(state: RunState, step: StoredStep): boolean {
  const results = step.task?.assetIds ?? [];
  if (results.length === 0) return true;
  const types = new Set(state.steps.map((s) => s.type));
  const node = RUN_GRAPH[step.type];
  if (!state.run.autoChoose && !(node.chosen && isNeeded(step.type, types))) {
    return true;
  }
  const current = state.choices[node.section] ?? null;
  if (current === null) return false;
  if (results.includes(current)) return true;
  return (
    !state.run.autoChoose &&
    current !== (step.detail.basis?.[node.section] ?? null)
  );
}

/** The status a tracked step moves to from its task (and the choice). */
function statusFromTask(state: RunState, step: StoredStep): RunStepStatus {
  const task = step.task;
  if (!task) return 'FAILED';
  if (task.status !== 'SUCCEEDED') return FROM_TASK[task.status] ?? step.status;
  return chosen(state, step) ? 'SUCCEEDED' : 'WAITING';
}

/**
 * Whether a step's result was made from choices that have changed since
 * (a different logo chosen after the icon set was drawn). Only a type's
 * latest attempt: an earlier one is superseded by its fix anyway.
 */
function isStale(state: RunState, step: StoredStep): boolean {
  const basis = step.detail.basis;
  if (!basis) return false;
  return RUN_GRAPH[step.type].needs.some((need) => {
    const section = RUN_GRAPH[need].section;
    return (
      section in basis && (state.choices[section] ?? null) !== basis[section]
    );
  });
}

/**
 * The moves one settle makes: tracked steps follow their tasks; a site
 * check's report decides the next move (fix-loop.ts); a succeeded step
 * whose needs were chosen differently since becomes STALE (not run
 * again); the run's status rolls up from its steps, and a failed run's
 * pending steps are SKIPPED. Pure: the service applies it.
 */
export function planSettle(state: RunState, reads: SettleReads): SettlePlan {
  const plan: SettlePlan = { steps: [], added: [] };
  const after = new Map(
    state.steps.map((step) => [step.position, { ...step }]),
  );
  const move = (step: StoredStep, change: StepChange) => {
    plan.steps.push({ position: step.position, from: step.status, change });
    after.set(step.position, {
      ...step,
      ...change,
      detail: change.detail ?? step.detail,
    });
  };
  const open = !['CANCELLED', 'FAILED', 'SUCCEEDED'].includes(state.run.status);
  for (const step of state.steps) {
    if (!TRACKED.includes(step.status)) continue;
    let status = statusFromTask(state, step);
    // A finished run only lets its tasks finish: no choice is waited for.
    if (!open && status === 'WAITING') status = 'SUCCEEDED';
    const report = reads.reports.get(step.position);
    const detail =
      step.type === 'site-check' &&
      status === 'SUCCEEDED' &&
      report &&
      step.detail.errors === undefined
        ? { ...step.detail, ...report }
        : undefined;
    if (status !== step.status || detail) {
      move(step, { status, ...(detail ? { detail } : {}) });
    }
  }
  for (const step of latestSteps([...after.values()])) {
    if (step.status === 'SUCCEEDED' && isStale(state, step)) {
      move(step, { status: 'STALE', detail: step.detail });
    }
  }
  let failure: RunErrorDto | undefined;
  if (open) failure = decideAfterChecks(state, reads, after, plan, move);
  settleRun(state, reads, after, plan, move, failure);
  return plan;
}

/** After a site check that succeeded: a fix, publish, or stop. */
function decideAfterChecks(
  state: RunState,
  reads: SettleReads,
  after: Map<number, StoredStep>,
  plan: SettlePlan,
  move: (step: StoredStep, change: StepChange) => void,
): RunErrorDto | undefined {
  const checks = [...after.values()]
    .filter((step) => step.type === 'site-check')
    .sort((a, b) => a.attempt - b.attempt);
  const last = checks.at(-1);
  if (!last || last.status !== 'SUCCEEDED' || last.detail.decided)
    return undefined;
  // A report that cannot be read counts as one no fix can shrink.
  const counts = checks.map(
    (check) => check.detail.errors ?? Number.MAX_SAFE_INTEGER,
  );
  const force = state.run.input.publish?.force === true;
  const next = afterSiteCheck(counts, { maxFixes: reads.maxFixes, force });
  move(last, {
    status: 'SUCCEEDED',
    detail: { ...last.detail, decided: true },
  });
  if (next === 'fix') {
    const position = Math.max(...after.keys()) + 1;
    const page = {
      position,
      type: 'landing-page' as const,
      attempt: last.attempt + 1,
      detail: { fixReportId: last.detail.reportId },
    };
    const check = {
      position: position + 1,
      type: 'site-check' as const,
      attempt: last.attempt + 1,
      detail: {},
    };
    for (const added of [page, check]) {
      plan.added.push(added);
      after.set(added.position, { ...added, taskId: null, status: 'PENDING' });
    }
    return undefined;
  }
  if (next === 'stop' && state.steps.some((s) => s.type === 'publish')) {
    return {
      code: 'site_check_failed',
      message: `The site check still found ${counts.at(-1)} errors after ${checks.length - 1} fixes; publish with input.publish.force to publish anyway`,
      step: 'site-check',
    };
  }
  return undefined;
}

/** The run's status, error and site from its steps after the moves. */
function settleRun(
  state: RunState,
  reads: SettleReads,
  after: Map<number, StoredStep>,
  plan: SettlePlan,
  move: (step: StoredStep, change: StepChange) => void,
  failure: RunErrorDto | undefined,
): void {
  const { run } = state;
  if (run.status === 'CANCELLED') return;
  const steps = [...after.values()];
  let status = run.status === 'FAILED' ? 'FAILED' : rollUp(steps);
  const change: RunChange = { status };
  if (failure) {
    status = 'FAILED';
    Object.assign(change, { status, error: failure });
  } else if (status === 'FAILED' && run.status !== 'FAILED') {
    const failed = latestSteps(steps).find(
      (step) => step.status === 'FAILED' || step.status === 'CANCELLED',
    );
    change.error = {
      code: 'step_failed',
      message: `The ${failed?.type ?? ''} step's task ${failed?.status === 'CANCELLED' ? 'was cancelled' : `failed: ${failed?.task?.error?.code ?? 'unknown'}`}`,
      ...(failed ? { step: failed.type } : {}),
    };
  }
  if (status === 'FAILED') {
    for (const step of steps) {
      if (step.status === 'PENDING') move(step, { status: 'SKIPPED' });
    }
  }
  if (reads.siteUrl !== undefined && run.siteUrl === null)
    change.siteUrl = reads.siteUrl;
  if (status !== run.status || change.siteUrl !== undefined) {
    plan.run = { from: run.status, change };
  }
}
