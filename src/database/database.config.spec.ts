import { ConfigurationError } from '../environment/env-values';
import { databaseConfig } from './database.config';

/** Outside Jest's NODE_ENV=test, as the production process runs. */
const PRODUCTION = { NODE_ENV: 'production' };

const load = (env: Record<string, string>) =>
  databaseConfig({ ...PRODUCTION, ...env });

/** A DATABASE_URL the service cannot use: what is allowed, and what it got. */
function refusal(value: string): string {
  try {
    databaseConfig({ DATABASE_URL: value });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error(`DATABASE_URL=${value} was accepted`);
}

describe('database configuration', () => {
  it('uses a SQLite file under ./data and runs migrations by default', () => {
    expect(load({})).toEqual({
      connection: { type: 'sqlite', file: './data/workspace.db' },
      migrationsRun: true,
    });
  });

  it('defaults DATABASE_URL to a private in-memory database under NODE_ENV=test', () => {
    expect(databaseConfig({ NODE_ENV: 'test' }).connection).toEqual({
      type: 'sqlite',
      file: ':memory:',
    });
  });

  it('reads a SQLite file and MIGRATIONS_RUN', () => {
    expect(
      load({
        DATABASE_URL: 'file:/var/lib/workspace/db.sqlite',
        MIGRATIONS_RUN: 'false',
      }),
    ).toEqual({
      connection: { type: 'sqlite', file: '/var/lib/workspace/db.sqlite' },
      migrationsRun: false,
    });
  });

  it('maps file::memory: to a private in-memory SQLite database', () => {
    expect(load({ DATABASE_URL: 'file::memory:' }).connection).toEqual({
      type: 'sqlite',
      file: ':memory:',
    });
  });

  it.each([
    'postgres://user:pass@db:5432/workspace',
    'postgresql://user:pass@db:5432/workspace',
  ])('maps %s to PostgreSQL with the URL as given', (url) => {
    expect(load({ DATABASE_URL: url }).connection).toEqual({
      type: 'postgres',
      url,
      poolSize: 10,
      ssl: false,
      connectTimeoutMs: 5000,
      statementTimeoutMs: 10000,
      listPoolSize: 5,
    });
  });

  it('reads the PostgreSQL pool, TLS and timeout settings', () => {
    expect(
      load({
        DATABASE_URL: 'postgres://db/workspace',
        DATABASE_POOL_SIZE: '25',
        DATABASE_SSL: 'true',
        DATABASE_CONNECT_TIMEOUT_MS: '2000',
        DATABASE_STATEMENT_TIMEOUT_MS: '3000',
        DATABASE_LIST_POOL_SIZE: '3',
      }).connection,
    ).toEqual({
      type: 'postgres',
      url: 'postgres://db/workspace',
      poolSize: 25,
      ssl: true,
      connectTimeoutMs: 2000,
      statementTimeoutMs: 3000,
      listPoolSize: 3,
    });
  });

  it.each([
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_SSL', 'sometimes'],
    ['DATABASE_CONNECT_TIMEOUT_MS', 'soon'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '-5'],
    ['DATABASE_LIST_POOL_SIZE', '0'],
    ['MIGRATIONS_RUN', 'maybe'],
  ])('rejects %s=%s with a message naming it', (name, value) => {
    expect(() =>
      load({ DATABASE_URL: 'postgres://db/workspace', [name]: value }),
    ).toThrow(new RegExp(`^Invalid configuration: ${name} `));
  });

  describe('DATABASE_URL refusal', () => {
    it('says what is allowed and what it got', () => {
      expect(refusal('mysql://x')).toBe(
        'Invalid configuration: DATABASE_URL must be file:PATH, file::memory: or a postgres:// URL (got "mysql://x")',
      );
    });

    it('refuses file: without a path', () => {
      expect(refusal('file:')).toContain('(got "file:")');
    });

    it('shows the value without its user and password', () => {
      const message = refusal('mysql://admin:hunter2@db.internal:3306/app');
      expect(message).toContain('(got "mysql://***@db.internal:3306/app")');
      expect(message).not.toContain('hunter2');
      expect(message).not.toContain('admin');
    });

    it('hides a password given as a parameter', () => {
      const message = refusal('mysql://db/app?user=a&password=hunter2');
      expect(message).toContain('password=***');
      expect(message).not.toContain('hunter2');
    });
  });
});
