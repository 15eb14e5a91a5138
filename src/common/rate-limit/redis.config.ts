import { registerAs, type ConfigType } from '@nestjs/config';
import {
  ConfigurationError,
  integer,
  read,
  type Env,
} from '../../environment/env-values';

/** Shared state of all replicas (the rate limits); no URL = per process. */
export const redisConfig = registerAs('redis', (env: Env = process.env) => ({
  url: redisUrl(env),
  keyPrefix: read(env, 'REDIS_KEY_PREFIX') ?? 'workspace-api:',
  /** A rate-limit check Redis has not answered by then uses memory. */
  commandTimeoutMs: integer(env, 'REDIS_COMMAND_TIMEOUT_MS', 200, 10, 5000),
}));

export type RedisConfig = ConfigType<typeof redisConfig>;

function redisUrl(env: Env): string | undefined {
  const raw = read(env, 'REDIS_URL');
  if (raw === undefined) return undefined;
  let protocol: string | undefined;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    // The value is not echoed: a Redis URL may carry a password.
    throw new ConfigurationError(
      'REDIS_URL',
      'must be a redis:// or rediss:// URL',
    );
  }
  return raw;
}
