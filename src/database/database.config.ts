import { registerAs, type ConfigType } from '@nestjs/config';
import { withoutCredentials } from '../../config/redact-url';
import {
  boolean,
  ConfigurationError,
  integer,
  read,
  type Env,
} from '../environment/env-values';

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

/** The database the service connects to. */
export type DatabaseConfig = { type: 'sqlite'; file: string } | PostgresConfig;

export const databaseConfig = registerAs(
  'database',
  (env: Env = process.env) => ({
    connection: connection(env),
    migrationsRun: boolean(env, 'MIGRATIONS_RUN', true),
  }),
);

export type DatabaseSettings = ConfigType<typeof databaseConfig>;

function connection(env: Env): DatabaseConfig {
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
