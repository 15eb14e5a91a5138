import { isIP } from 'node:net';
import { registerAs, type ConfigType } from '@nestjs/config';
import { ConfigurationError, read, type Env } from '../environment/env-values';

/** false, true (every hop), a hop count, or trusted addresses and subnets. */
export type TrustProxySetting = boolean | number | string[];

/** Origins allowed by CORS: undefined = CORS off, '*' = any origin. */
export type CorsOrigins = string[] | '*' | undefined;

/** How the service meets HTTP clients: CORS, proxies, its public address. */
export const httpConfig = registerAs('http', (env: Env = process.env) => ({
  corsOrigins: corsOrigins(env),
  /** Express 'trust proxy': false = the socket address is the client. */
  trustProxy: trustProxy(env),
  /**
   * The service's public origin (and path prefix) for the absolute URLs it
   * hands out; undefined = taken from each request.
   */
  publicBaseUrl: publicBaseUrl(env),
}));

export type HttpConfig = ConfigType<typeof httpConfig>;

/** `*`, or a comma-separated list of origins such as https://app.example.com. */
function corsOrigins(env: Env): CorsOrigins {
  const raw = read(env, 'CORS_ORIGINS');
  if (raw === undefined) return undefined;
  if (raw === '*') return '*';
  const origins = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    // A browser sends the origin as scheme://host[:port], nothing more, so
    // anything else would never match and is a configuration mistake.
    if (
      !parsed ||
      (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
      parsed.origin !== origin
    ) {
      throw new ConfigurationError(
        'CORS_ORIGINS',
        `must be * or a comma-separated list of origins such as https://app.example.com (got "${origin}")`,
      );
    }
  }
  return origins.length > 0 ? origins : undefined;
}

/** The names proxy-addr (Express 'trust proxy') knows for address ranges. */
const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrSubnet(entry: string): boolean {
  if (TRUST_PROXY_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
  return bits >= 0 && bits <= (version === 4 ? 32 : 128);
}

function trustProxy(env: Env): TrustProxySetting {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined) return false;
  const lower = raw.toLowerCase();
  if (['false', 'no', '0'].includes(lower)) return false;
  if (['true', 'yes'].includes(lower)) return true;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops <= 100) return hops;
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.every(isAddressOrSubnet)) return entries;
  throw new ConfigurationError(
    'TRUST_PROXY',
    `must be true, false, a hop count from 1 to 100, or a comma-separated list of addresses, subnets, loopback, linklocal or uniquelocal (got "${raw}")`,
  );
}

/**
 * An http(s) origin with an optional path prefix, no query or fragment,
 * kept without its trailing slash: URLs are appended to it.
 */
function publicBaseUrl(env: Env): string | undefined {
  const raw = read(env, 'PUBLIC_BASE_URL');
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== '' ||
    url.password !== ''
  ) {
    throw new ConfigurationError(
      'PUBLIC_BASE_URL',
      `must be an http(s) URL such as https://api.example.com, without query or credentials (got "${raw}")`,
    );
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
