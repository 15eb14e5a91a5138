/**
 * Reads and validates the process environment into a typed configuration.
 *
 * Every variable the service reads is parsed here and nowhere else, so a bad
 * value stops start-up with one line naming the variable instead of failing
 * later in the middle of a request.
 */

export interface PostgresConfig {
  type: 'postgres';
  url: string;
  poolSize: number;
  /** TLS with certificate verification; sslmode in the URL works too. */
  ssl: boolean;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
}

export type DatabaseConfig = { type: 'sqlite'; file: string } | PostgresConfig;

export const LOG_LEVELS = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  migrationsRun: boolean;
  bodyLimitBytes: number;
  logLevel: LogLevelName;
  imageApi: {
    /** Unset or blank means "not configured" (SPEC 4.6 rule 2, 4.7). */
    key: string | undefined;
    url: string;
    model: string;
    timeoutMs: number;
  };
}

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
    };
  }
  // The value is not echoed: a PostgreSQL URL may carry a password.
  throw new ConfigurationError(
    'DATABASE_URL',
    'must be file:PATH, file::memory: or a postgres:// URL',
  );
}

function logLevel(env: Env): LogLevelName {
  const raw = read(env, 'LOG_LEVEL')?.toLowerCase() ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigurationError(
      'LOG_LEVEL',
      `must be one of ${LOG_LEVELS.join(', ')} (got "${raw}")`,
    );
  }
  return raw as LogLevelName;
}

export function loadConfiguration(env: Env = process.env): AppConfig {
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: read(env, 'HOST') ?? '127.0.0.1',
    database: database(env),
    migrationsRun: boolean(env, 'MIGRATIONS_RUN', true),
    bodyLimitBytes: byteSize(env, 'BODY_LIMIT', 1024 * 1024),
    logLevel: logLevel(env),
    imageApi: {
      key: read(env, 'IMAGE_API_KEY'),
      url: httpUrl(
        env,
        'IMAGE_API_URL',
        'https://api.openai.com/v1/images/generations',
      ),
      model: read(env, 'IMAGE_MODEL') ?? 'dall-e-3',
      timeoutMs: integer(env, 'IMAGE_API_TIMEOUT_MS', 60000, 1, 3_600_000),
    },
  };
}
