import {
  Inject,
  Injectable,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import Sqlite from 'better-sqlite3';
import { statSync } from 'node:fs';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, PoolConfig } from 'pg';
import { DataSource } from 'typeorm';
import type { ConfigType } from '@nestjs/config';
import { limitsConfig } from '../common/limits.config';
import { databaseConfig } from './database.config';
import { ServiceBusyError } from '../failures/retry-later.error';
import type { JsonCursor } from './json-cursor';
import { jsonSqlFor, type JsonSql } from './sql';
import { PostgresJsonCursor } from './postgres-json-cursor';
import { SqliteJsonCursor } from './sqlite-json-cursor';
import { type Claimant, FairGate } from '../common/concurrency/fair-gate';

export const LISTS_BUSY_MESSAGE = 'Too many lists in progress, retry later';
const LISTS_BUSY_RETRY_AFTER_S = 2;
/**
 * How long a list waits for a list connection when all are in use (or its
 * client's share is): lists of an ordinary size give theirs back within
 * milliseconds.
 */
const LIST_CONNECTION_WAIT_MS = 2_000;

/** Lists that may wait for a list connection, per instance. */
const LIST_CONNECTION_QUEUE_LIMIT = 64;

/** Who a list counts against when its caller is not told (tests, tools). */
const UNNAMED: Claimant = { identity: 'anyone', address: 'anyone' };

/**
 * The list connections' fair shares. An identity's second connection is
 * granted only while at least half the pool (rounded up) stays free, so
 * clients holding two each fill at most a part of it and the rest goes
 * one per identity: a new client's first list still starts. An address,
 * and a network of addresses (an IPv4 /24, an IPv6 /64), holds less than
 * half the pool however many identities it shows: two of them never hold
 * every connection (from a pool of 3 up).
 */
export function listConnectionShares(poolSize: number, clientLimit: number) {
  const place = {
    permits: Math.max(1, Math.floor((poolSize - 1) / 2)),
    waiting: LIST_CONNECTION_QUEUE_LIMIT / 2,
  };
  return {
    permits: poolSize,
    waiting: LIST_CONNECTION_QUEUE_LIMIT,
    perIdentity: { permits: clientLimit, waiting: clientLimit },
    perAddress: place,
    perNetwork: place,
    reserve: Math.ceil(poolSize / 2),
    waitMs: LIST_CONNECTION_WAIT_MS,
  };
}

/** A WAL file at least this large is truncated once no list reads it. */
const WAL_TRUNCATE_ABOVE_BYTES = 4 * 1024 * 1024;

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

  /** The list pool's connections (PostgreSQL), taken before a cursor opens. */
  private readonly connections: FairGate | undefined;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(databaseConfig.KEY) config: ConfigType<typeof databaseConfig>,
    @Inject(limitsConfig.KEY) limits: ConfigType<typeof limitsConfig>,
  ) {
    this.json = jsonSqlFor(dataSource.options.type);
    const database = config.connection;
    if (database.type === 'postgres') {
      this.connections = new FairGate(
        listConnectionShares(database.listPoolSize, limits.listClientLimit),
      );
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
  async openJson(
    text: string,
    params: unknown[],
    client: Claimant = UNNAMED,
  ): Promise<JsonCursor> {
    if (!this.pool || !this.connections) {
      const cursor = new SqliteJsonCursor(
        this.sqliteFile as string,
        text,
        params,
      );
      return new TrackedCursor(cursor, this.open, () => this.afterClose());
    }
    // Every list connection (or the client's share) in use: a short wait
    // for one to come back, then 503 — never the pool's own wait
    // (DATABASE_CONNECT_TIMEOUT_MS) that ends in a 500.
    const release = await this.connections.enter(
      client,
      () => new ServiceBusyError(LISTS_BUSY_MESSAGE, LISTS_BUSY_RETRY_AFTER_S),
    );
    try {
      const cursor = await PostgresJsonCursor.open(this.pool, text, params);
      return new TrackedCursor(cursor, this.open, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * SQLite: once no list holds a snapshot, a WAL grown behind one is
   * checkpointed and truncated, on a connection of its own that never waits
   * (timeout 0): if a reader or a writer is busy, SQLite says so at once and
   * the next list to close tries again. A small WAL is left to SQLite's own
   * checkpoints.
   */
  private afterClose(): void {
    const file = this.sqliteFile;
    if (this.pool || this.open.size > 0 || !file) return;
    let walBytes: number;
    try {
      walBytes = statSync(`${file}-wal`).size;
    } catch {
      return;
    }
    if (walBytes < WAL_TRUNCATE_ABOVE_BYTES) return;
    setImmediate(() => {
      if (this.open.size > 0) return;
      let connection: Sqlite.Database | undefined;
      try {
        connection = new Sqlite(file, { timeout: 0 });
        connection.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // Busy or gone: the next list to close tries again.
      } finally {
        connection?.close();
      }
    });
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
    private readonly onClosed: () => void = () => undefined,
  ) {
    open.add(this);
  }

  next(): Promise<string[] | undefined> {
    return this.cursor.next();
  }

  async close(): Promise<void> {
    const wasOpen = this.open.delete(this);
    await this.cursor.close();
    if (wasOpen) this.onClosed();
  }
}
