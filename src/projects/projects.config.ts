import { registerAs, type ConfigType } from '@nestjs/config';
import { boolean, integer, read, type Env } from '../environment/env-values';

/**
 * Creates per user and PROJECT_CREATE_RATE_WINDOW_S when AUTH_MODE=oidc and
 * PROJECT_CREATE_RATE_LIMIT is unset: two a second on average, far above
 * what a person does and far below what a loop does.
 */
export const OIDC_PROJECT_CREATE_RATE_LIMIT = 120;

export const projectsConfig = registerAs(
  'projects',
  (env: Env = process.env) => ({
    /**
     * PATCH refuses a name outside 1-100 characters and a description over
     * 500, as create does (off: the contract applies a PATCH body without
     * validation; see docs/api.md).
     */
    patchLengthLimits: boolean(env, 'PATCH_LENGTH_LIMITS', false),
    createRateLimit: {
      // Off as the contract has it when anyone may call; per proven user
      // with AUTH_MODE=oidc, where a caller is someone who can be limited.
      // AUTH_MODE itself is validated with auth.
      /** Creates per client and window; 0 = no limit. */
      limit: integer(
        env,
        'PROJECT_CREATE_RATE_LIMIT',
        read(env, 'AUTH_MODE')?.toLowerCase() === 'oidc'
          ? OIDC_PROJECT_CREATE_RATE_LIMIT
          : 0,
        0,
        1_000_000,
      ),
      windowSeconds: integer(
        env,
        'PROJECT_CREATE_RATE_WINDOW_S',
        60,
        1,
        86_400,
      ),
    },
  }),
);

export type ProjectsConfig = ConfigType<typeof projectsConfig>;
