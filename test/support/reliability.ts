import { appendFileSync } from 'node:fs';
import { TEST_DATABASE } from './test-database';

/**
 * How hard the reliability suite (test/reliability) pushes. `npm test` runs
 * the short version; `npm run test:reliability` sets RELIABILITY_SCALE=long.
 */
export const RELIABILITY_SCALE: 'short' | 'long' =
  process.env.RELIABILITY_SCALE === 'long' ? 'long' : 'short';

export const isLongRun = RELIABILITY_SCALE === 'long';

/** `short` in `npm test`, `long` in `npm run test:reliability`. */
export function byScale<T>(short: T, long: T): T {
  return isLongRun ? long : short;
}

/**
 * The seed of one driver: RELIABILITY_SEED when set (to replay a failure),
 * otherwise a fresh one. Printed either way, so any run can be replayed.
 */
export function reliabilitySeed(driver: string): number {
  const given = process.env.RELIABILITY_SEED;
  const seed =
    given !== undefined && /^-?\d+$/.test(given)
      ? Number(given)
      : Math.floor(Math.random() * 2 ** 31);
  process.stdout.write(
    `[reliability] ${driver} (${TEST_DATABASE}, ${RELIABILITY_SCALE}): seed ${seed}; replay with RELIABILITY_SEED=${seed}\n`,
  );
  return seed;
}

/** A small deterministic generator (mulberry32) for drivers outside fast-check. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The cost driver's figures for the worst body of one family on one route. */
export interface CostFigures {
  route: string;
  family: string;
  bytes: number;
  status: number;
  answerMs: number;
  /** The longest the main thread held the event loop. */
  stallMs: number;
  /** perf_hooks.monitorEventLoopDelay's maximum. */
  delayMs: number;
}

export interface ReliabilityRecord {
  driver: 'fuzz' | 'crash' | 'faults' | 'load' | 'cost' | 'flood';
  /** What was counted: an operation, a fault, "kill points", "requests". */
  item: string;
  count: number;
  failures: number;
  seed?: number;
  note?: string;
  cost?: CostFigures;
}

/**
 * Appends one line of figures to RELIABILITY_REPORT (set by
 * `npm run test:reliability`, which prints them as a table). Without it the
 * figures only go to stdout.
 */
export function recordReliability(record: ReliabilityRecord): void {
  const line = { ...record, database: TEST_DATABASE, scale: RELIABILITY_SCALE };
  const file = process.env.RELIABILITY_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify(line)}\n`);
}
