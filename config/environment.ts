/**
 * Reads and validates the process environment into a typed configuration.
 *
 * Every variable the service reads is parsed here and nowhere else, so a bad
 * value stops start-up with one line naming the variable instead of failing
 * later in the middle of a request.
 */

import { isIP } from 'node:net';
import { withoutCredentials } from './redact-url';

export interface PostgresConfig {
  type: 'postgres';
  url: string;
  poolSize: number;
  /** TLS with certificate verification; sslmode in the URL works too. */
  ssl: boolean;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  /**
   * Connections of the separate pool that streams full lists, so lists in
   * progress never take the connections that writes and short reads use.
   */
  listPoolSize: number;
}

export type DatabaseConfig = { type: 'sqlite'; file: string } | PostgresConfig;

export const LOG_LEVELS = [
  'silent',
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export const IMAGE_QUALITIES = ['low', 'medium', 'high', 'auto'] as const;
export type ImageQuality = (typeof IMAGE_QUALITIES)[number];

export const IMAGE_RESPONSE_FORMATS = ['url', 'b64_json'] as const;
export type ImageResponseFormat = (typeof IMAGE_RESPONSE_FORMATS)[number];

/**
 * The largest base64 image kept, and the upstream calls in flight: sized
 * together so that every call answering the largest image at once fits the
 * Deployment's 512 MiB with room to spare (docs/operations.md, "Memory").
 */
export const DEFAULT_IMAGE_MAX_BYTES = 6 * 1024 * 1024;
export const DEFAULT_IMAGE_API_CONCURRENCY = 8;

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  migrationsRun: boolean;
  bodyLimitBytes: number;
  logLevel: LogLevelName;
  /** 'json': one JSON object per line; 'pretty': for a human at a terminal. */
  logFormat: LogFormat;
  /**
   * PATCH refuses a name outside 1-100 characters and a description over
   * 500, as create does (off: the contract applies a PATCH body without
   * validation; see docs/api.md).
   */
  patchLengthLimits: boolean;
  /** Origins allowed by CORS: undefined = CORS off, '*' = any origin. */
  corsOrigins: string[] | '*' | undefined;
  /** Longest wait for in-flight requests after SIGTERM. */
  shutdownTimeoutMs: number;
  /**
   * A streamed list whose client reads nothing for this long is cut off, so
   * a stalled client cannot hold a snapshot (and its connection) forever.
   */
  listIdleTimeoutMs: number;
  /**
   * A streamed list still running after this long is cut off, however fast
   * its client reads, so no list holds a snapshot (and its connection) longer.
   */
  listMaxDurationMs: number;
  /** Streamed lists one client (a user, or an address without auth) may run at once. */
  listClientLimit: number;
  /**
   * Large request bodies (over 64 KB, or chunked): how many are read at once
   * per instance, how long one waits for its turn, and how long its bytes
   * may take once it has one.
   */
  largeBodies: { permits: number; waitMs: number; readTimeoutMs: number };
  imageApi: {
    /** Unset or blank means "not configured" (logo generation answers 500). */
    key: string | undefined;
    url: string;
    model: string;
    /** GPT image models' `quality` (low, medium, high or auto). */
    quality: ImageQuality;
    /**
     * The answer format asked of other models: url (the default, the
     * documented request) or b64_json (the service then hosts the image).
     */
    responseFormat: ImageResponseFormat;
    /** The largest decoded image kept from a base64 answer. */
    maxImageBytes: number;
    /** One upstream call. */
    timeoutMs: number;
    /** Retries after the first call, for 429, 5xx, timeouts, lost connections. */
    maxRetries: number;
    /** Queue wait, every call and every backoff of one request together. */
    deadlineMs: number;
    retryBaseMs: number;
    retryMaxMs: number;
    /** The longest upstream Retry-After that is honoured as given. */
    retryAfterCapMs: number;
    /** Upstream calls in flight at once in this process. */
    concurrency: number;
    /** Requests waiting for a call slot; one more is refused with 503. */
    queueLimit: number;
    busyRetryAfterSeconds: number;
    /** One client's requests in flight or waiting; one more is refused with 429. */
    clientLimit: number;
  };
  logoRateLimit: {
    /** Upstream-bound requests per client and window; 0 = no limit. */
    limit: number;
    windowSeconds: number;
  };
  projectCreateRateLimit: {
    /** Creates per client and window; 0 = no limit (the default without auth). */
    limit: number;
    windowSeconds: number;
  };
  /** Shared state of all replicas (the rate limits); unset = per process. */
  redis: {
    url: string | undefined;
    keyPrefix: string;
    /** A rate-limit check Redis has not answered by then uses memory. */
    commandTimeoutMs: number;
  };
  /** Express 'trust proxy': false = the socket address is the client. */
  trustProxy: TrustProxySetting;
  /** How long an Idempotency-Key's answer is kept and replayed. */
  idempotencyTtlSeconds: number;
  /** How long a hosted logo (from a base64 answer) can be loaded. */
  logoUrlTtlSeconds: number;
  /**
   * The service's public origin (and path prefix) for the absolute URLs it
   * hands out; undefined = taken from each request.
   */
  publicBaseUrl: string | undefined;
  /** Who may call the API: anyone (the default), or OpenID Connect bearer tokens. */
  auth: AuthConfig;
  /** Kept logos: where their bytes live and how their URLs work. */
  assets: AssetsConfig;
}

export interface AssetsConfig {
  store: AssetStoreConfig;
  /** Assets one project may hold; one more is refused with 409. */
  maxPerProject: number;
  /**
   * How long a signed asset URL works (AUTH_MODE=oidc); at most an hour,
   * so a leaked URL stops working within one.
   */
  urlTtlSeconds: number;
  /** The HMAC key of signed asset URLs; set with AUTH_MODE=oidc. */
  urlSigningKey: string | undefined;
}

export const ASSET_STORES = ['database', 's3'] as const;

/** In the database (the default) or in an S3-compatible bucket. */
export type AssetStoreConfig = { type: 'database' } | S3StoreConfig;

export interface S3StoreConfig {
  type: 's3';
  bucket: string;
  /** An S3-compatible endpoint; undefined = AWS S3 itself. */
  endpoint: string | undefined;
  region: string;
  /** Bucket in the path, not the host name (MinIO and most local servers). */
  forcePathStyle: boolean;
  /** Prepended to every object key; always ends with `/` (or is empty). */
  prefix: string;
  /** An object no row names is deleted once it is this old. */
  sweepGraceSeconds: number;
  /** Giving up opening a connection to the bucket. */
  connectTimeoutMs: number;
  /**
   * Giving up one S3 call (retries included) that has not answered: a
   * write, a delete or a listing page; for a read, until its bytes start.
   */
  requestTimeoutMs: number;
}

export type AuthConfig = { mode: 'none' } | OidcConfig;

export interface OidcConfig {
  mode: 'oidc';
  /** The provider's issuer URL, as tokens carry it in `iss`. */
  issuer: string;
  /** The `aud` a token must be issued for. */
  audience: string;
  /** Overrides the jwks_uri of the issuer's discovery document. */
  jwksUrl: string | undefined;
  algorithms: string[];
  clockToleranceSeconds: number;
  /** The claim holding the caller's user id. */
  userClaim: string;
  /** Callers holding this role may read every user's projects. */
  adminRole: string | undefined;
  /** The claim listing the caller's roles (a dot walks into objects). */
  rolesClaim: string;
  /** After a key-set fetch, unknown key ids wait this long for the next. */
  jwksCooldownSeconds: number;
}

/** false, true (every hop), a hop count, or trusted addresses and subnets. */
export type TrustProxySetting = boolean | number | string[];

export class ConfigurationError extends Error {
  constructor(variable: string, rule: string) {
    super(`Invalid configuration: ${variable} ${rule}`);
    this.name = 'ConfigurationError';
  }
}

type Env = Record<string, string | undefined>;

/** A blank variable counts as unset, as it does in most deployment tools. */
function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigurationError(
      name,
      `must be an integer from ${min} to ${max} (got "${raw}")`,
    );
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigurationError(name, `must be true or false (got "${raw}")`);
}

function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = read(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigurationError(name, `must be an http(s) URL (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(name, `must be an http(s) URL (got "${raw}")`);
  }
  return raw;
}

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  mb: 1024 * 1024,
};

function byteSize(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const match = /^(\d+)\s*(b|kb|mb)?$/i.exec(raw);
  const bytes = match
    ? Number(match[1]) * SIZE_UNITS[(match[2] ?? 'b').toLowerCase()]
    : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new ConfigurationError(
      name,
      `must be a size such as 1mb, 512kb or 2048 (got "${raw}")`,
    );
  }
  return bytes;
}

function database(env: Env): DatabaseConfig {
  // Jest sets NODE_ENV=test: an app built from AppModule in a test then starts
  // on an empty private database instead of the developer's data file.
  const fallback =
    env.NODE_ENV === 'test' ? 'file::memory:' : 'file:./data/workspace.db';
  const raw = read(env, 'DATABASE_URL') ?? fallback;
  if (raw === 'file::memory:') return { type: 'sqlite', file: ':memory:' };
  if (raw.startsWith('file:') && raw.length > 'file:'.length) {
    return { type: 'sqlite', file: raw.slice('file:'.length) };
  }
  if (/^postgres(ql)?:\/\/.+/.test(raw)) {
    return {
      type: 'postgres',
      url: raw,
      poolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
      ssl: boolean(env, 'DATABASE_SSL', false),
      // Bounded waits: during an outage a request fails within seconds with
      // its documented 500 instead of hanging.
      connectTimeoutMs: integer(
        env,
        'DATABASE_CONNECT_TIMEOUT_MS',
        5000,
        1,
        600_000,
      ),
      statementTimeoutMs: integer(
        env,
        'DATABASE_STATEMENT_TIMEOUT_MS',
        10000,
        1,
        3_600_000,
      ),
      listPoolSize: integer(env, 'DATABASE_LIST_POOL_SIZE', 5, 1, 1000),
    };
  }
  // Echoed without its user and password: a URL may carry them.
  throw new ConfigurationError(
    'DATABASE_URL',
    `must be file:PATH, file::memory: or a postgres:// URL (got "${withoutCredentials(raw)}")`,
  );
}

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

function logLevel(env: Env): LogLevelName {
  // Under Jest (NODE_ENV=test) request lines would drown the test report; a
  // test that reads the log sets LOG_LEVEL itself.
  const fallback = env.NODE_ENV === 'test' ? 'silent' : 'info';
  const raw = read(env, 'LOG_LEVEL')?.toLowerCase() ?? fallback;
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigurationError(
      'LOG_LEVEL',
      `must be one of ${LOG_LEVELS.join(', ')} (got "${raw}")`,
    );
  }
  return raw as LogLevelName;
}

function logFormat(env: Env): LogFormat {
  const raw = read(env, 'LOG_FORMAT')?.toLowerCase() ?? 'json';
  if (!(LOG_FORMATS as readonly string[]).includes(raw)) {
    throw new ConfigurationError(
      'LOG_FORMAT',
      `must be json or pretty (got "${raw}")`,
    );
  }
  return raw as LogFormat;
}

/** `*`, or a comma-separated list of origins such as https://app.example.com. */
function corsOrigins(env: Env): string[] | '*' | undefined {
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

/**
 * Creates per user and PROJECT_CREATE_RATE_WINDOW_S when AUTH_MODE=oidc and
 * PROJECT_CREATE_RATE_LIMIT is unset: two a second on average, far above
 * what a person does and far below what a loop does.
 */
export const OIDC_PROJECT_CREATE_RATE_LIMIT = 120;

export function loadConfiguration(env: Env = process.env): AppConfig {
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: read(env, 'HOST') ?? '127.0.0.1',
    database: database(env),
    migrationsRun: boolean(env, 'MIGRATIONS_RUN', true),
    bodyLimitBytes: byteSize(env, 'BODY_LIMIT', 1024 * 1024),
    logLevel: logLevel(env),
    logFormat: logFormat(env),
    patchLengthLimits: boolean(env, 'PATCH_LENGTH_LIMITS', false),
    corsOrigins: corsOrigins(env),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 25000, 0, 3_600_000),
    listIdleTimeoutMs: integer(
      env,
      'LIST_IDLE_TIMEOUT_MS',
      30000,
      1,
      3_600_000,
    ),
    listMaxDurationMs: integer(
      env,
      'LIST_MAX_DURATION_MS',
      120_000,
      1,
      3_600_000,
    ),
    listClientLimit: integer(env, 'LIST_CLIENT_LIMIT', 2, 1, 1000),
    largeBodies: {
      permits: integer(env, 'LARGE_BODY_PERMITS', 4, 1, 64),
      waitMs: integer(env, 'LARGE_BODY_WAIT_MS', 3000, 1, 60_000),
      readTimeoutMs: integer(
        env,
        'LARGE_BODY_READ_TIMEOUT_MS',
        10_000,
        100,
        300_000,
      ),
    },
    imageApi: {
      key: read(env, 'IMAGE_API_KEY'),
      url: httpUrl(
        env,
        'IMAGE_API_URL',
        'https://api.openai.com/v1/images/generations',
      ),
      model: read(env, 'IMAGE_MODEL') ?? 'dall-e-3',
      quality: oneOf(env, 'IMAGE_QUALITY', IMAGE_QUALITIES, 'auto'),
      responseFormat: oneOf(
        env,
        'IMAGE_RESPONSE_FORMAT',
        IMAGE_RESPONSE_FORMATS,
        'url',
      ),
      maxImageBytes: byteSize(env, 'IMAGE_MAX_BYTES', DEFAULT_IMAGE_MAX_BYTES),
      timeoutMs: integer(env, 'IMAGE_API_TIMEOUT_MS', 60000, 1, 3_600_000),
      maxRetries: integer(env, 'IMAGE_API_MAX_RETRIES', 2, 0, 10),
      deadlineMs: integer(env, 'IMAGE_API_DEADLINE_MS', 120000, 1, 3_600_000),
      retryBaseMs: integer(env, 'IMAGE_API_RETRY_BASE_MS', 1000, 0, 600_000),
      retryMaxMs: integer(env, 'IMAGE_API_RETRY_MAX_MS', 10000, 0, 3_600_000),
      retryAfterCapMs: integer(
        env,
        'IMAGE_API_RETRY_AFTER_CAP_MS',
        30000,
        0,
        3_600_000,
      ),
      concurrency: integer(
        env,
        'IMAGE_API_CONCURRENCY',
        DEFAULT_IMAGE_API_CONCURRENCY,
        1,
        1000,
      ),
      queueLimit: integer(env, 'IMAGE_API_QUEUE_LIMIT', 100, 0, 100_000),
      busyRetryAfterSeconds: integer(
        env,
        'IMAGE_API_BUSY_RETRY_AFTER_S',
        10,
        1,
        3600,
      ),
      clientLimit: integer(env, 'IMAGE_API_CLIENT_LIMIT', 4, 1, 100_000),
    },
    logoRateLimit: {
      limit: integer(env, 'LOGO_RATE_LIMIT', 60, 0, 1_000_000),
      windowSeconds: integer(env, 'LOGO_RATE_WINDOW_S', 60, 1, 86_400),
    },
    projectCreateRateLimit: {
      // Off as the contract has it when anyone may call; per proven user
      // with AUTH_MODE=oidc, where a caller is someone who can be limited.
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
    redis: {
      url: redisUrl(env),
      keyPrefix: read(env, 'REDIS_KEY_PREFIX') ?? 'workspace-api:',
      commandTimeoutMs: integer(env, 'REDIS_COMMAND_TIMEOUT_MS', 200, 10, 5000),
    },
    trustProxy: trustProxy(env),
    idempotencyTtlSeconds: integer(
      env,
      'IDEMPOTENCY_TTL_S',
      86_400,
      1,
      30 * 86_400,
    ),
    logoUrlTtlSeconds: integer(env, 'LOGO_URL_TTL_S', 3600, 1, 7 * 86_400),
    publicBaseUrl: publicBaseUrl(env),
    auth: auth(env),
    assets: assets(env),
  };
}

/** The shortest signing key accepted: 256 bits of base64 or hex text. */
const MIN_SIGNING_KEY_LENGTH = 32;

function assets(env: Env): AssetsConfig {
  const oidc = read(env, 'AUTH_MODE')?.toLowerCase() === 'oidc';
  const urlSigningKey = read(env, 'ASSET_URL_SIGNING_KEY');
  if (oidc && urlSigningKey === undefined) {
    throw new ConfigurationError(
      'ASSET_URL_SIGNING_KEY',
      'must be set when AUTH_MODE=oidc',
    );
  }
  if (
    urlSigningKey !== undefined &&
    urlSigningKey.length < MIN_SIGNING_KEY_LENGTH
  ) {
    // Never echo the value: it is a secret.
    throw new ConfigurationError(
      'ASSET_URL_SIGNING_KEY',
      `must be at least ${MIN_SIGNING_KEY_LENGTH} characters`,
    );
  }
  return {
    store: assetStore(env),
    maxPerProject: integer(env, 'ASSET_MAX_PER_PROJECT', 20, 1, 1000),
    urlTtlSeconds: integer(env, 'ASSET_URL_TTL_S', 3600, 60, 3600),
    urlSigningKey,
  };
}

function assetStore(env: Env): AssetStoreConfig {
  const type = oneOf(env, 'ASSET_STORE', ASSET_STORES, 'database');
  if (type === 'database') return { type };
  const bucket = read(env, 'ASSET_S3_BUCKET');
  if (bucket === undefined) {
    throw new ConfigurationError(
      'ASSET_S3_BUCKET',
      'must be set when ASSET_STORE=s3',
    );
  }
  return {
    type,
    bucket,
    endpoint:
      read(env, 'ASSET_S3_ENDPOINT') === undefined
        ? undefined
        : httpUrl(env, 'ASSET_S3_ENDPOINT', ''),
    region: read(env, 'ASSET_S3_REGION') ?? 'us-east-1',
    forcePathStyle: boolean(env, 'ASSET_S3_FORCE_PATH_STYLE', false),
    prefix: folderPrefix(read(env, 'ASSET_S3_PREFIX') ?? 'assets/'),
    sweepGraceSeconds: integer(
      env,
      'ASSET_S3_SWEEP_GRACE_S',
      900,
      60,
      7 * 86_400,
    ),
    connectTimeoutMs: integer(
      env,
      'ASSET_S3_CONNECT_TIMEOUT_MS',
      3000,
      100,
      60_000,
    ),
    requestTimeoutMs: integer(
      env,
      'ASSET_S3_REQUEST_TIMEOUT_MS',
      20_000,
      500,
      300_000,
    ),
  };
}

/**
 * A key prefix as a folder: `logos` becomes `logos/`, so that listing it
 * (and the sweep) never reaches `logos-archive/…`.
 */
function folderPrefix(prefix: string): string {
  return prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
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

/** Asymmetric JWS algorithms only: never `none`, never an HMAC secret. */
export const AUTH_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

function auth(env: Env): AuthConfig {
  const mode = read(env, 'AUTH_MODE')?.toLowerCase() ?? 'none';
  if (mode === 'none') return { mode };
  if (mode !== 'oidc') {
    throw new ConfigurationError(
      'AUTH_MODE',
      `must be none or oidc (got "${mode}")`,
    );
  }
  for (const name of ['AUTH_ISSUER', 'AUTH_AUDIENCE']) {
    if (read(env, name) === undefined) {
      throw new ConfigurationError(name, 'must be set when AUTH_MODE=oidc');
    }
  }
  const algorithms = (read(env, 'AUTH_ALGORITHMS') ?? 'RS256,ES256,EdDSA')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const refused = algorithms.filter(
    (name) => !(AUTH_ALGORITHMS as readonly string[]).includes(name),
  );
  if (refused.length > 0 || algorithms.length === 0) {
    throw new ConfigurationError(
      'AUTH_ALGORITHMS',
      `must list algorithms among ${AUTH_ALGORITHMS.join(', ')} (got "${refused.join(',')}")`,
    );
  }
  return {
    mode,
    issuer: httpUrl(env, 'AUTH_ISSUER', ''),
    audience: read(env, 'AUTH_AUDIENCE')!,
    jwksUrl:
      read(env, 'AUTH_JWKS_URL') === undefined
        ? undefined
        : httpUrl(env, 'AUTH_JWKS_URL', ''),
    algorithms,
    clockToleranceSeconds: integer(env, 'AUTH_CLOCK_TOLERANCE_S', 5, 0, 300),
    userClaim: read(env, 'AUTH_USER_CLAIM') ?? 'sub',
    adminRole: read(env, 'AUTH_ADMIN_ROLE'),
    rolesClaim: read(env, 'AUTH_ROLES_CLAIM') ?? 'roles',
    jwksCooldownSeconds: integer(env, 'AUTH_JWKS_COOLDOWN_S', 30, 0, 3600),
  };
}

/** How the dev image API (`npm run image-api:dev`) answers by default. */
export const DEV_IMAGE_REPLIES = [
  'image',
  'error',
  'missing-url',
  'not-json',
  'reset',
] as const;
export type DevImageReplyKind = (typeof DEV_IMAGE_REPLIES)[number];

export interface DevImageApiConfig {
  port: number;
  reply: DevImageReplyKind;
  /** Status of 'error' and 'not-json' replies; undefined = their default. */
  status: number | undefined;
  errorMessage: string | undefined;
  latencyMs: number;
  retryAfterSeconds: number | undefined;
}

function optionalInteger(
  env: Env,
  name: string,
  min: number,
  max: number,
): number | undefined {
  return read(env, name) === undefined
    ? undefined
    : integer(env, name, min, min, max);
}

/** The local stand-in for the image API: a development tool, not the service. */
export function loadDevImageApiConfiguration(
  env: Env = process.env,
): DevImageApiConfig {
  const reply = read(env, 'IMAGE_DEV_REPLY')?.toLowerCase() ?? 'image';
  if (!(DEV_IMAGE_REPLIES as readonly string[]).includes(reply)) {
    throw new ConfigurationError(
      'IMAGE_DEV_REPLY',
      `must be one of ${DEV_IMAGE_REPLIES.join(', ')} (got "${reply}")`,
    );
  }
  return {
    port: integer(env, 'IMAGE_DEV_PORT', 4010, 0, 65535),
    reply: reply as DevImageReplyKind,
    status: optionalInteger(env, 'IMAGE_DEV_STATUS', 100, 599),
    errorMessage: read(env, 'IMAGE_DEV_ERROR_MESSAGE'),
    latencyMs: integer(env, 'IMAGE_DEV_LATENCY_MS', 0, 0, 3_600_000),
    retryAfterSeconds: optionalInteger(
      env,
      'IMAGE_DEV_RETRY_AFTER_S',
      0,
      86_400,
    ),
  };
}

/**
 * OTEL_TRACES_SAMPLER's values (the OpenTelemetry specification's names;
 * the jaeger and xray samplers are not provided).
 */
export const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number];

/** The OTLP encodings the exporter speaks (grpc is not bundled). */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

export type TracingConfig =
  | { enabled: false }
  | {
      enabled: true;
      /** service.name unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES name it. */
      serviceName: string;
      protocol: OtlpProtocol;
      sampler: TraceSamplerName;
      /** The ratio of the traceidratio samplers, 0 to 1. */
      samplerRatio: number;
    };

export const DEFAULT_SERVICE_NAME = 'workspace-api';

function oneOf<T extends string>(
  env: Env,
  name: string,
  values: readonly T[],
  fallback: T,
): T {
  const raw = read(env, name)?.toLowerCase() ?? fallback;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigurationError(
      name,
      `must be one of ${values.join(', ')} (got "${raw}")`,
    );
  }
  return raw as T;
}

function ratio(env: Env, name: string): number {
  const raw = read(env, name);
  if (raw === undefined) return 1;
  const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= 0 && value <= 1)) {
    throw new ConfigurationError(
      name,
      `must be a number from 0 to 1 (got "${raw}")`,
    );
  }
  return value;
}

/**
 * Tracing, from the standard OpenTelemetry variables only. Off unless an
 * OTLP endpoint is set, so a deployment without a collector never loads the
 * SDK; OTEL_SDK_DISABLED=true turns it off whatever else is set. The
 * exporter itself reads the endpoints (and OTEL_EXPORTER_OTLP_HEADERS,
 * _TIMEOUT, _COMPRESSION) as the specification says; the SDK's resource
 * detection reads OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. Values
 * are checked here only while tracing is on.
 */
export function loadTracingConfiguration(
  env: Env = process.env,
): TracingConfig {
  const endpoint =
    read(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ??
    read(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (boolean(env, 'OTEL_SDK_DISABLED', false) || endpoint === undefined) {
    return { enabled: false };
  }
  httpUrl(
    env,
    read(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== undefined
      ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
      : 'OTEL_EXPORTER_OTLP_ENDPOINT',
    endpoint,
  );
  const protocol =
    read(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') !== undefined
      ? oneOf(
          env,
          'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
          OTLP_PROTOCOLS,
          'http/protobuf',
        )
      : oneOf(
          env,
          'OTEL_EXPORTER_OTLP_PROTOCOL',
          OTLP_PROTOCOLS,
          'http/protobuf',
        );
  return {
    enabled: true,
    serviceName: read(env, 'OTEL_SERVICE_NAME') ?? DEFAULT_SERVICE_NAME,
    protocol,
    sampler: oneOf(
      env,
      'OTEL_TRACES_SAMPLER',
      TRACE_SAMPLERS,
      'parentbased_always_on',
    ),
    samplerRatio: ratio(env, 'OTEL_TRACES_SAMPLER_ARG'),
  };
}
