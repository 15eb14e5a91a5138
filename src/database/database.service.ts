import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

type Work<T> = (manager: EntityManager) => Promise<T>;

/**
 * The one way services reach the database.
 *
 * TypeORM's better-sqlite3 driver runs every query of the process on ONE
 * connection, so two requests that overlap break each other: a second
 * BEGIN fails ("cannot start a transaction within a transaction"), a plain
 * save issued while another request's transaction is open is rolled back with
 * it, and readers see uncommitted rows. On SQLite every unit of work, reads
 * included, therefore waits its turn in a promise-chain queue. PostgreSQL
 * gives each unit its own pooled connection and needs no queue.
 */
@Injectable()
export class Database {
  private readonly serialized: boolean;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.serialized = dataSource.options.type === 'better-sqlite3';
  }

  /** Runs queries that change nothing. */
  read<T>(work: Work<T>): Promise<T> {
    return this.inTurn(() => work(this.dataSource.manager));
  }

  /** Runs work in one transaction: all of its changes commit, or none. */
  write<T>(work: Work<T>): Promise<T> {
    return this.inTurn(() => this.dataSource.transaction(work));
  }

  private inTurn<T>(job: () => Promise<T>): Promise<T> {
    if (!this.serialized) return job();
    const result = this.tail.then(job);
    // The next job waits for this one whether it succeeds or fails.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
