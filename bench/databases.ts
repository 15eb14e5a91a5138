import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { seedPostgres } from './seed-postgres';
import { seedSqlite } from './seed-sqlite';
import { startService } from './service';

/**
 * Fresh databases for a run, migrated by the service itself (so the schema
 * is exactly the one under test), then seeded directly.
 */

export type BackendKind = 'sqlite' | 'postgres';

export interface SeededDatabase {
  url: string;
  /** Ids of every seeded project, in seeding order. */
  ids: string[];
}

export interface Backend {
  readonly kind: BackendKind;
  /** A fresh database with `projects` projects over `users` users. */
  seeded(
    name: string,
    data: { projects: number; users: number },
  ): Promise<SeededDatabase>;
  /**
   * A copy of a seeded database under its name + `-suffix`, for a build
   * that must not share its schema or its writes (the A/B).
   */
  copyOf(url: string, suffix: string): Promise<string>;
  /** Removes what this backend created (files live in the run's temp dir). */
  dispose(): Promise<void>;
}

/**
 * The build that migrates a backend's databases: its entry point and the
 * Node.js it runs on (default this checkout's, on the bench's Node.js).
 */
export interface Migrator {
  entry?: string;
  node?: string;
}

/**
 * Starts the service once on `url` (MIGRATIONS_RUN defaults to true), stops
 * it.
 */
async function migrate(
  url: string,
  workDir: string,
  migrator: Migrator,
): Promise<void> {
  const service = await startService({
    name: 'migrate',
    databaseUrl: url,
    workDir,
    entry: migrator.entry,
    node: migrator.node,
  });
  await service.stop();
}

export async function sqliteBackend(
  workDir: string,
  migrator: Migrator = {},
): Promise<Backend> {
  const template = join(workDir, 'template.db');
  await migrate(`file:${template}`, workDir, migrator);
  // One self-contained file (no -wal beside it), safe to copy.
  const db = new Database(template);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();

  return {
    kind: 'sqlite',
    seeded(name, data) {
      const file = join(workDir, `${name}.db`);
      copyFileSync(template, file);
      const ids = data.projects > 0 ? seedSqlite(file, data) : [];
      return Promise.resolve({ url: `file:${file}`, ids });
    },
    copyOf(url, suffix) {
      const file = url.slice('file:'.length);
      const copy = file.replace(/\.db$/, `-${suffix}.db`);
      copyFileSync(file, copy);
      return Promise.resolve(`file:${copy}`);
    },
    dispose: () => Promise.resolve(),
  };
}

/** A migrated, empty SQLite file for the raw-insert reference. */
export function freshSqliteCopy(workDir: string, name: string): string {
  const file = join(workDir, `${name}.db`);
  copyFileSync(join(workDir, 'template.db'), file);
  return file;
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A PostgreSQL backend can also make an empty database (no migrations). */
export interface PostgresBackend extends Backend {
  /** A new, empty database under its name; dropped with the others. */
  empty(name: string): Promise<string>;
}

export function postgresBackend(
  adminUrl: string,
  workDir: string,
  migrator: Migrator = {},
): PostgresBackend {
  const prefix = `workspace_bench_${randomBytes(4).toString('hex')}`;
  const created: string[] = [];
  const empty = async (name: string) => {
    const database = `${prefix}_${name.replace(/[^a-z0-9_]/gi, '_')}`;
    await adminQuery(adminUrl, `CREATE DATABASE "${database}"`);
    created.push(database);
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    return url.toString();
  };
  return {
    kind: 'postgres',
    empty,
    async seeded(name, data) {
      const url = await empty(name);
      await migrate(url, workDir, migrator);
      const ids = data.projects > 0 ? await seedPostgres(url, data) : [];
      return { url, ids };
    },
    async copyOf(url, suffix) {
      const source = new URL(url);
      const database = `${source.pathname.slice(1)}_${suffix.replace(/[^a-z0-9_]/gi, '_')}`;
      // A file-level copy; the source must have no session open.
      await adminQuery(
        adminUrl,
        `CREATE DATABASE "${database}" TEMPLATE "${source.pathname.slice(1)}"`,
      );
      created.push(database);
      source.pathname = `/${database}`;
      return source.toString();
    },
    async dispose() {
      for (const database of created.splice(0)) {
        // FORCE ends sessions of a service that was killed mid-run.
        await adminQuery(
          adminUrl,
          `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`,
        );
      }
    },
  };
}
