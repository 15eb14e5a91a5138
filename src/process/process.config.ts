import { registerAs, type ConfigType } from '@nestjs/config';
import { integer, read, type Env } from '../environment/env-values';

/**
 * Where the process listens and how long it may take to stop: read by
 * main.ts, by the drain (health) and by the last span export (tracing).
 */
export const processConfig = registerAs(
  'process',
  (env: Env = process.env) => ({
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: read(env, 'HOST') ?? '127.0.0.1',
    /** Longest wait for in-flight requests after SIGTERM. */
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 25000, 0, 3_600_000),
  }),
);

export type ProcessConfig = ConfigType<typeof processConfig>;
