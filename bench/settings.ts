import { resolve } from 'node:path';

/**
 * Everything a run can be tuned with, read once from BENCH_* variables.
 * The defaults are the ones the targets are stated for.
 */

export function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a positive number (got "${raw}")`);
  }
  return value;
}

export const REPO_ROOT = resolve(__dirname, '..');
/**
 * The service's entry: the production bundle, or BENCH_SERVER_ENTRY (e.g.
 * dist/src/main.js, the unbundled build, whose CPU profiles name files and
 * lines one can read).
 */
export const SERVER_ENTRY = resolve(
  REPO_ROOT,
  process.env.BENCH_SERVER_ENTRY?.trim() || 'dist/service/main.js',
);
export const RESULTS_DIR = resolve(__dirname, 'results');

export interface Settings {
  rounds: number;
  warmupS: number;
  durationS: number;
  connections: number;
  /** Admin URL of a PostgreSQL server; unset = SQLite only. */
  postgresUrl: string | undefined;
  /** Extra node flags for the main service process (e.g. --cpu-prof). */
  serverNodeArgs: string[];
  /** LOG_LEVEL for the service; unset = the service's own default. */
  logLevel: string | undefined;
  /** Scenarios to run (names of scenarios.ts, and `burst`); all by default. */
  only: Set<string> | undefined;
}

export const ALL_SCENARIO_NAMES = [
  'get-by-id',
  'get-by-id-oidc',
  'list-by-user',
  'list-all',
  'list-all-large',
  'create',
  'create-keyed',
  'create-replay',
  'patch',
  'logo',
  'keep-logo',
  'asset-content',
  'burst',
  'replicas',
];

/**
 * BENCH_SCENARIOS=get-by-id,logo: a quicker run, e.g. to profile one. A
 * scenario's fixed-rate run (…-paced) comes with it.
 */
function onlyScenarios(): Set<string> | undefined {
  const raw = process.env.BENCH_SCENARIOS?.trim();
  if (!raw) return undefined;
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !ALL_SCENARIO_NAMES.includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `BENCH_SCENARIOS: unknown ${unknown.join(', ')} (known: ${ALL_SCENARIO_NAMES.join(', ')})`,
    );
  }
  return new Set(names);
}

export function readSettings(): Settings {
  const rounds = Math.round(positive('BENCH_ROUNDS', 3));
  return {
    rounds,
    warmupS: positive('BENCH_WARMUP_S', 2),
    durationS: positive('BENCH_DURATION_S', 5),
    connections: Math.round(positive('BENCH_CONNECTIONS', 30)),
    postgresUrl: process.env.BENCH_POSTGRES_URL?.trim() || undefined,
    serverNodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '')
      .split(' ')
      .filter((arg) => arg !== ''),
    logLevel: process.env.BENCH_LOG_LEVEL?.trim() || undefined,
    only: onlyScenarios(),
  };
}

/** The main data set: 100,000 projects, 20 per user. */
export const MAIN_DATA = { projects: 100_000, users: 5_000 };
/** "List all with 1,000 projects in the database": same 20 per user. */
export const SMALL_DATA = { projects: 1_000, users: 50 };
/** Seeded ids handed to the load generator for get-by-id and patch. */
export const ID_SAMPLE_SIZE = 20_000;

export const BURST = {
  requests: 1_000,
  upstreamDelayMs: 1_000,
  /** Concurrent requests that warm the fresh burst server up first. */
  warmupRequests: 100,
};

/** Cores: the service and the references on one, everything else on the other. */
export const SERVER_CORE = 0;
export const LOAD_CORE = 1;
