import { registerAs, type ConfigType } from '@nestjs/config';
import { integer, type Env } from '../environment/env-values';

export const idempotencyConfig = registerAs(
  'idempotency',
  (env: Env = process.env) => ({
    /** How long an Idempotency-Key's answer is kept and replayed. */
    ttlSeconds: integer(env, 'IDEMPOTENCY_TTL_S', 86_400, 1, 30 * 86_400),
  }),
);

export type IdempotencyConfig = ConfigType<typeof idempotencyConfig>;
