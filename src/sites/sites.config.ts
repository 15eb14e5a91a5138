import { registerAs, type ConfigType } from '@nestjs/config';
import {
  ConfigurationError,
  httpUrl,
  integer,
  oneOf,
  read,
  type Env,
} from '../environment/env-values';

export const SITES_STORES = ['database', 's3'] as const;
export type SitesStore = (typeof SITES_STORES)[number];

/**
 * Published sites: where the sites listener binds (never the API's own
 * port, so a page never shares the API's origin), the public origin a
 * site's address is made of, and where the files are kept.
 */
export const sitesConfig = registerAs('sites', (env: Env = process.env) => {
  const store = oneOf(env, 'SITES_STORE', SITES_STORES, 'database');
  // The bucket is the asset store's: SITES_STORE=s3 needs its settings.
  if (store === 's3' && read(env, 'ASSET_STORE')?.toLowerCase() !== 's3') {
    throw new ConfigurationError(
      'SITES_STORE',
      'can be s3 only when ASSET_STORE=s3 (the sites share its bucket)',
    );
  }
  const baseUrl = httpUrl(env, 'SITES_BASE_URL', 'http://localhost:3001');
  return {
    port: integer(env, 'SITES_PORT', 3001, 0, 65535),
    host: read(env, 'SITES_HOST') ?? read(env, 'HOST') ?? '127.0.0.1',
    /** Without its trailing slash: a site's address is `${baseUrl}/…`. */
    baseUrl: baseUrl.replace(/\/+$/, ''),
    store,
  };
});

export type SitesConfig = ConfigType<typeof sitesConfig>;
