import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * Which database the e2e suite runs on. `npm run test:e2e` uses SQLite;
 * `npm run test:e2e:postgres` sets TEST_DATABASE=postgres and runs the same
 * specs on PostgreSQL at TEST_POSTGRES_URL.
 */
export const TEST_DATABASE: 'sqlite' | 'postgres' =
  process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  /** A DATABASE_URL for the app. */
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database of the kind under test, private to the caller. */
export function createTestDatabase(): Promise<TestDatabase> {
  return TEST_DATABASE === 'postgres'
    ? createPostgresDatabase()
    : Promise.resolve(createSqliteDatabase());
}

export function createSqliteDatabase(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'workspace-e2e-'));
  return {
    url: `file:${join(dir, 'workspace.db')}`,
    drop: () => {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

export function postgresAdminUrl(): string {
  const url = process.env.TEST_POSTGRES_URL;
  if (!url) {
    throw new Error(
      'TEST_POSTGRES_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/postgres)',
    );
  }
  return url;
}

/** Runs one statement on the server's admin database. */
export async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: postgresAdminUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates workspace_test_<random> and returns its URL. */
export async function createPostgresDatabase(): Promise<TestDatabase> {
  const name = `workspace_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE ends sessions a test left open (an app killed mid-test).
    drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
