import { registerAs, type ConfigType } from '@nestjs/config';
import { read, type Env } from '../environment/env-values';

/** What the OpenAPI document describes beyond the routes themselves. */
export const apiDocsConfig = registerAs(
  'apiDocs',
  (env: Env = process.env) => ({
    /**
     * Every route requires a bearer token (AUTH_MODE=oidc). Read here
     * rather than from auth's slice, which the docs folder does not import;
     * AUTH_MODE itself is validated with auth.
     */
    bearerAuth: read(env, 'AUTH_MODE')?.toLowerCase() === 'oidc',
  }),
);

export type ApiDocsConfig = ConfigType<typeof apiDocsConfig>;
