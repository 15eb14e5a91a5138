import {
  Inject,
  Injectable,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, PoolConfig } from 'pg';
import { DataSource } from 'typeorm';
import { appConfig } from '../../config/app.config';
import type { AppConfig } from '../../config/environment';
import type { JsonCursor } from './json-cursor';
import { jsonSqlFor, type JsonSql } from './sql';
import { PostgresJsonCursor } from './postgres-json-cursor';
import { SqliteJsonCursor } from './sqlite-json-cursor';

/**
 * Opens JsonCursors: one point-in-time view of the database per cursor, on
 * a connection the write path never uses. On SQLite that is a read-only
 * connection of its own (the Database queue's single connection stays free
 * for everything else); on PostgreSQL a connection of a separate, small pool
 * (DATABASE_LIST_POOL_SIZE), so lists in progress cannot take the
 * connections that writes wait for.
 */
@Injectable()
export class SnapshotReader implements OnModuleInit, OnApplicationShutdown {
  /** The JSON expressions of the statements this reader runs. */
  readonly json: JsonSql;
  private readonly sqliteFile: string | undefined;
  private readonly poolConfig: PoolConfig | undefined;
  private pool: Pool | undefined;
  private readonly open = new Set<JsonCursor>();

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(appConfig.KEY) config: AppConfig,
  ) {
    this.json = jsonSqlFor(dataSource.options.type);
    const database = config.database;
    if (database.type === 'postgres') {
      this.poolConfig = {
        connectionString: database.url,
        max: database.listPoolSize,
        connectionTimeoutMillis: database.connectTimeoutMs,
        ...(database.ssl ? { ssl: { rejectUnauthorized: true } } : {}),
        // Visible as such in pg_stat_activity.
        application_name: 'workspace-api:list',
        statement_timeout: database.statementTimeoutMs,
        query_timeout: database.statementTimeoutMs + 1000,
        keepAlive: true,
      };
    } else {
      this.sqliteFile = String(dataSource.options.database);
    }
  }

  /** pg is loaded only on PostgreSQL: on SQLite it is start-up time for nothing. */
  onModuleInit(): void {
    if (!this.poolConfig) return;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Pool } = require('pg') as typeof import('pg');
    this.pool = new Pool(this.poolConfig);
    // An idle pooled connection that the server closes must not crash the
    // process; the next checkout opens a new one.
    this.pool.on('error', () => undefined);
  }

  /**
   * Starts reading `text` ($-numbered `params`), whose first column is a
   * JSON document. The caller must close the cursor.
   */
  async openJson(text: string, params: unknown[]): Promise<JsonCursor> {
    const cursor = this.pool
      ? await PostgresJsonCursor.open(this.pool, text, params)
      : new SqliteJsonCursor(this.sqliteFile as string, text, params);
    return new TrackedCursor(cursor, this.open);
  }

  /** Cursors still open at shutdown (cut-off lists) are released first. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.open].map((cursor) => cursor.close()));
    await this.pool?.end();
  }
}

/** Keeps a cursor in `open` until it is closed. */
class TrackedCursor implements JsonCursor {
  constructor(
    private readonly cursor: JsonCursor,
    private readonly open: Set<JsonCursor>,
  ) {
    open.add(this);
  }

  next(): Promise<string[] | undefined> {
    return this.cursor.next();
  }

  close(): Promise<void> {
    this.open.delete(this);
    return this.cursor.close();
  }
}
