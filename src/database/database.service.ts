import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ownSpansEnabled } from '../tracing/spans';
import { traceSqliteStatements } from './statement-spans';

type Work<T> = (manager: EntityManager) => Promise<T>;

interface CommitHooks {
  before: Array<() => Promise<void>>;
  after: Array<() => void>;
}

declare const transactionBrand: unique symbol;

/**
 * A transaction in progress, as services pass it from one repository to the
 * next so that their writes commit together (a create and its
 * Idempotency-Key record). Opaque outside repositories: only they turn it
 * back into TypeORM's EntityManager (managerOf).
 */
export interface Transaction {
  readonly [transactionBrand]: never;
}

/** The EntityManager of a transaction; for repositories only. */
export const managerOf = (transaction: Transaction): EntityManager =>
  transaction as unknown as EntityManager;

/**
 * The one way repositories reach the database.
 *
 * TypeORM's better-sqlite3 driver runs every query of the process on ONE
 * connection, so two requests that overlap break each other: a second
 * BEGIN fails ("cannot start a transaction within a transaction"), a plain
 * save issued while another request's transaction is open is rolled back with
 * it, and readers see uncommitted rows. On SQLite every unit of work, reads
 * included, therefore waits its turn in a promise-chain queue. PostgreSQL
 * gives each unit its own pooled connection and needs no queue.
 *
 * better-sqlite3 is synchronous, so a turn never waits for I/O: without a
 * break, a burst of requests would run back to back, queries and responses,
 * in the one pass of the event loop that read them, and timers, health
 * probes and new connections would wait for all of them. Turns run back to
 * back for at most SLICE_MS; the next one then starts on a later pass
 * (setImmediate), after the timers and the I/O that arrived meanwhile.
 */
/**
 * Long enough that yielding costs nothing measurable (one pass of the loop
 * per 10 ms), short enough that a burst of 100 requests stays far under the
 * 200 ms stall the reliability suite allows.
 */
const SLICE_MS = 10;

@Injectable()
export class Database {
  /** SQLite: one connection, every unit of work in turn, on this thread. */
  readonly serialized: boolean;
  private tail: Promise<unknown> = Promise.resolve();
  /** Each open transaction's commit hooks, by its EntityManager. */
  private readonly hooks = new WeakMap<EntityManager, CommitHooks>();
  private sliceStartedAt = -Infinity;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.serialized = dataSource.options.type === 'better-sqlite3';
    // PostgreSQL's statements are traced by the pg instrumentation.
    if (this.serialized && ownSpansEnabled()) traceSqliteStatements(dataSource);
  }

  /** One trivial statement, in turn: the readiness probe's check. */
  async ping(): Promise<void> {
    await this.read((manager) => manager.query('SELECT 1'));
  }

  /** Runs queries that change nothing. */
  read<T>(work: Work<T>): Promise<T> {
    return this.inTurn(() => work(this.dataSource.manager));
  }

  /** Runs work in one transaction: all of its changes commit, or none. */
  write<T>(work: Work<T>): Promise<T> {
    return this.inTurn(() => this.committed(work));
  }

  /**
   * Runs `last` at the end of the transaction, after its work and before
   * its commit (a failure rolls it all back): the change log writes its
   * events there, as the transaction's last statements.
   */
  beforeCommit(transaction: Transaction, last: () => Promise<void>): void {
    this.hooksOf(transaction).before.push(last);
  }

  /** Runs `then` once the transaction has committed (never if it rolls back). */
  afterCommit(transaction: Transaction, then: () => void): void {
    this.hooksOf(transaction).after.push(then);
  }

  /**
   * Runs `work` in one transaction whose handle the caller hands to
   * repositories: all of their changes commit, or none.
   */
  transaction<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    return this.write((manager) => work(manager as unknown as Transaction));
  }

  /**
   * A transaction that writes megabytes (an asset's bytes). better-sqlite3
   * commits on the event loop's thread, and a commit of ~1,000 pages would
   * also start SQLite's automatic WAL checkpoint, which copies them again
   * into the database file in the same turn. So on SQLite the automatic
   * checkpoint is held off for this transaction and a passive one runs on
   * a later turn (docs/reliability.md); PostgreSQL needs nothing of this.
   */
  async largeTransaction<T>(
    work: (transaction: Transaction) => Promise<T>,
  ): Promise<T> {
    if (!this.serialized) return this.transaction(work);
    const result = await this.inTurn(async () => {
      const manager = this.dataSource.manager;
      const [setting] = await manager.query<
        Array<{ wal_autocheckpoint?: number }>
      >('PRAGMA wal_autocheckpoint');
      const previous = Number(setting?.wal_autocheckpoint ?? 1000);
      await manager.query('PRAGMA wal_autocheckpoint = 0');
      try {
        return await this.committed((transactional) =>
          work(transactional as unknown as Transaction),
        );
      } finally {
        await manager.query(
          `PRAGMA wal_autocheckpoint = ${Number.isSafeInteger(previous) ? previous : 1000}`,
        );
      }
    });
    await new Promise<void>((resolve) => setImmediate(resolve));
    void this.read((manager) =>
      manager.query('PRAGMA wal_checkpoint(PASSIVE)'),
    ).catch(() => undefined);
    return result;
  }

  private hooksOf(transaction: Transaction): CommitHooks {
    const manager = managerOf(transaction);
    let hooks = this.hooks.get(manager);
    if (!hooks) {
      hooks = { before: [], after: [] };
      this.hooks.set(manager, hooks);
    }
    return hooks;
  }

  /** One transaction of `work`, with the hooks it registered. */
  private async committed<T>(work: Work<T>): Promise<T> {
    let hooks: CommitHooks | undefined;
    const result = await this.dataSource.transaction(async (manager) => {
      const value = await work(manager);
      hooks = this.hooks.get(manager);
      // A hook may register others (after-commit ones, typically).
      for (let index = 0; hooks && index < hooks.before.length; index++) {
        await hooks.before[index]();
      }
      return value;
    });
    for (const then of hooks?.after ?? []) then();
    return result;
  }

  private inTurn<T>(job: () => Promise<T>): Promise<T> {
    if (!this.serialized) return job();
    const result = this.tail.then(() => this.startTurn()).then(job);
    // The next job waits for this one whether it succeeds or fails.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves at once within the current slice, or on the loop's next pass. */
  private startTurn(): Promise<void> | undefined {
    if (performance.now() - this.sliceStartedAt < SLICE_MS) return undefined;
    return new Promise((resolve) =>
      setImmediate(() => {
        this.sliceStartedAt = performance.now();
        resolve();
      }),
    );
  }
}
