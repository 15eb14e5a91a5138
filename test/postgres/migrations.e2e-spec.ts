import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import request from 'supertest';
import { MIGRATIONS } from '../../migrations';
import {
  REPO_ROOT,
  ServerProcess,
  startServer,
} from '../support/server-process';
import { createPostgresDatabase, TestDatabase } from '../support/test-database';

const run = promisify(execFile);
const MIGRATION_NAMES = MIGRATIONS.map((migration) => migration.name);

async function appliedMigrations(url: string): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      'SELECT name FROM migrations ORDER BY id',
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

describe('PostgreSQL migrations', () => {
  let database: TestDatabase;
  let servers: ServerProcess[] = [];
  let cwd: string;

  beforeEach(async () => {
    database = await createPostgresDatabase();
    cwd = mkdtempSync(join(tmpdir(), 'workspace-migrate-'));
  });
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    servers = [];
    await database.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('three instances started at once on an empty database all become ready, and each migration runs once', async () => {
    const starts = await Promise.allSettled(
      [1, 2, 3].map(() => startServer({ DATABASE_URL: database.url }, { cwd })),
    );
    // Keep every started process for afterEach, whatever happened to others.
    for (const start of starts) {
      if (start.status === 'fulfilled') servers.push(start.value);
    }
    expect(
      starts.map((start) =>
        start.status === 'fulfilled' ? 'ready' : String(start.reason),
      ),
    ).toEqual(['ready', 'ready', 'ready']);
    for (const server of servers) {
      await request(server.baseUrl).get('/api/projects').expect(200);
    }
    expect(await appliedMigrations(database.url)).toEqual(MIGRATION_NAMES);
  });

  it('`npm run migration:run` (the built command) migrates once and exits 0; a second run applies nothing', async () => {
    // Only what a Kubernetes Job would have: the build, PATH and the URL.
    const migrate = () =>
      run(process.execPath, [join(REPO_ROOT, 'dist/config/migrate.js')], {
        cwd,
        env: { PATH: process.env.PATH, DATABASE_URL: database.url },
      });
    const first = await migrate();
    expect(first.stdout.trim()).toBe(`Applied ${MIGRATION_NAMES.join(', ')}`);
    const second = await migrate();
    expect(second.stdout.trim()).toBe('No pending migrations');
    expect(await appliedMigrations(database.url)).toEqual(MIGRATION_NAMES);
  });

  it('with MIGRATIONS_RUN=false the app leaves the schema to the migration step', async () => {
    servers.push(
      await startServer(
        { DATABASE_URL: database.url, MIGRATIONS_RUN: 'false' },
        { cwd },
      ),
    );
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        "SELECT 1 FROM information_schema.tables WHERE table_name = 'projects'",
      );
      expect(rows).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
