import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { positive, REPO_ROOT } from './settings';
import { codeVersionOf } from './bench-run';

/**
 * Settings of `npm run bench:ab`, read once from BENCH_* variables: which two
 * builds are compared, and how long each is driven.
 */

/** One built checkout under test: its own dist/ and node_modules. */
export interface Build {
  label: 'A' | 'B';
  dir: string;
  /** `<dir>/dist/src/main.js`, started as production starts it. */
  entry: string;
  commit: string;
  /** Uncommitted changes under src/, config/ or migrations/. */
  uncommittedChanges: boolean;
}

export interface AbSettings {
  a: Build;
  b: Build;
  rounds: number;
  warmupS: number;
  durationS: number;
  connections: number;
  /** Seeded once per database kind, for both builds. */
  data: { projects: number; users: number };
  /** SQLite: both builds on one file instead of a byte copy each. */
  sharedSqlite: boolean;
  /** Admin URL of a PostgreSQL server; unset = SQLite only. */
  postgresUrl: string | undefined;
  scenarios: AbScenarioName[];
}

export const AB_SCENARIO_NAMES = [
  'get-by-id',
  'list-by-user',
  'logo',
  'create',
] as const;
export type AbScenarioName = (typeof AB_SCENARIO_NAMES)[number];

/**
 * Scenarios whose server CPU per request must stay within this share of A's
 * (the read paths and the logo route); create is held to the raw-insert
 * reference instead.
 */
export const CPU_TOLERANCE = 0.05;
export const CPU_CHECKED: readonly AbScenarioName[] = [
  'get-by-id',
  'list-by-user',
  'logo',
];
/** Least share of the raw better-sqlite3 transactions/s that create keeps. */
export const CREATE_MIN_SHARE_OF_REFERENCE = 0.15;

/** The baseline checkout when BENCH_A_DIR is unset: `../ab-baseline`. */
export const DEFAULT_A_DIR = resolve(REPO_ROOT, '..', 'ab-baseline');

function build(label: Build['label'], rawDir: string): Build {
  const dir = resolve(rawDir);
  const entry = resolve(dir, 'dist', 'src', 'main.js');
  if (!existsSync(entry)) {
    throw new Error(
      `BENCH_${label}_DIR=${dir}: no ${entry} (run \`npm run build\` there first)`,
    );
  }
  if (!existsSync(resolve(dir, 'node_modules'))) {
    throw new Error(`BENCH_${label}_DIR=${dir}: no node_modules`);
  }
  return { label, dir, entry, ...codeVersionOf(dir) };
}

function scenarios(): AbScenarioName[] {
  const raw = process.env.BENCH_SCENARIOS?.trim();
  if (!raw) return [...AB_SCENARIO_NAMES];
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.filter(
    (name) => !(AB_SCENARIO_NAMES as readonly string[]).includes(name),
  );
  if (unknown.length > 0) {
    throw new Error(
      `BENCH_SCENARIOS: unknown ${unknown.join(', ')} (known here: ${AB_SCENARIO_NAMES.join(', ')})`,
    );
  }
  return AB_SCENARIO_NAMES.filter((name) => names.includes(name));
}

export function readAbSettings(): AbSettings {
  const projects = Math.round(positive('BENCH_AB_PROJECTS', 20_000));
  return {
    a: build('A', process.env.BENCH_A_DIR?.trim() || DEFAULT_A_DIR),
    b: build('B', process.env.BENCH_B_DIR?.trim() || REPO_ROOT),
    rounds: Math.round(positive('BENCH_ROUNDS', 4)),
    warmupS: positive('BENCH_WARMUP_S', 1),
    durationS: positive('BENCH_DURATION_S', 4),
    connections: Math.round(positive('BENCH_CONNECTIONS', 30)),
    // 20 projects per user, as in the main bench.
    data: { projects, users: Math.max(1, Math.round(projects / 20)) },
    sharedSqlite: process.env.BENCH_AB_SHARED_SQLITE === '1',
    postgresUrl: process.env.BENCH_POSTGRES_URL?.trim() || undefined,
    scenarios: scenarios(),
  };
}
