import { registerAs, type ConfigType } from '@nestjs/config';
import { integer, type Env } from '../environment/env-values';

/**
 * Runs: how many unfinished runs one user may have, how many times a run
 * fixes its landing page after site checks, and how often each process
 * sweeps for runs whose tasks settled without their advance (a worker
 * killed between the two, or a settle heard by another replica).
 */
export const runsConfig = registerAs('runs', (env: Env = process.env) => ({
  maxConcurrentPerUser: integer(
    env,
    'RUNS_MAX_CONCURRENT_PER_USER',
    2,
    1,
    1000,
  ),
  maxFixes: integer(env, 'RUNS_MAX_FIXES', 2, 0, 5),
  sweepMs: integer(env, 'RUNS_SWEEP_MS', 5000, 100, 600_000),
}));

export type RunsConfig = ConfigType<typeof runsConfig>;
