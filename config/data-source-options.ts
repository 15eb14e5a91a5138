import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../migrations';
import { PROJECT_ENTITIES } from '../src/projects/entities';
import type { DatabaseConfig } from '../src/database/database.config';

/**
 * TypeORM options for the configured database. Used by the app and by the
 * migration command, so both see the same entities and migrations.
 *
 * `synchronize` is never on: the schema changes only through migrations.
 */

/** The size, in bytes, an emptied SQLite WAL file is cut back to. */
export const SQLITE_JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024;

export function buildDataSourceOptions(
  database: DatabaseConfig,
): DataSourceOptions {
  const common = {
    entities: PROJECT_ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    // Migrations run through runPendingMigrations (under a lock on
    // PostgreSQL), never by TypeORM's own start-up hook.
    migrationsRun: false,
    logging: false,
  } as const;

  if (database.type === 'postgres') {
    return {
      ...common,
      type: 'postgres',
      url: database.url,
      poolSize: database.poolSize,
      connectTimeoutMS: database.connectTimeoutMs,
      ...(database.ssl ? { ssl: { rejectUnauthorized: true } } : {}),
      applicationName: 'workspace-api',
      extra: {
        // Server-side limit per statement, and a client-side one that also
        // covers a server that stopped answering.
        statement_timeout: database.statementTimeoutMs,
        query_timeout: database.statementTimeoutMs + 1000,
        keepAlive: true,
      },
    };
  }
  return {
    ...common,
    type: 'better-sqlite3',
    database: database.file,
    // WAL lets readers proceed while a write commits; NORMAL is the durable
    // setting SQLite recommends with WAL (a power cut may lose the last
    // commits, never corrupt the file). Foreign keys are switched on by
    // TypeORM's driver.
    enableWAL: database.file !== ':memory:',
    prepareDatabase: (db: { pragma(source: string): unknown }) => {
      db.pragma('synchronous = NORMAL');
      // After a checkpoint that empties it, the WAL file is cut back to this
      // size; without it a WAL grown behind a long reader keeps its size.
      db.pragma(`journal_size_limit = ${SQLITE_JOURNAL_SIZE_LIMIT}`);
    },
  };
}
