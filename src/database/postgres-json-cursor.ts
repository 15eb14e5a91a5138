import type { Pool, PoolClient } from 'pg';
import type { JsonCursor } from './json-cursor';

/** About 270 KB of project documents per round trip. */
const FETCH_ROWS = 100;

/**
 * A server-side cursor in a REPEATABLE READ, READ ONLY transaction: every
 * FETCH reads the snapshot the transaction took at its first statement, and
 * PostgreSQL keeps only the rows of one FETCH in this process at a time.
 * Writers are never blocked by it (MVCC).
 */
export class PostgresJsonCursor implements JsonCursor {
  private finished = false;
  private closing: Promise<void> | undefined;

  private constructor(private readonly client: PoolClient) {}

  static async open(
    pool: Pool,
    text: string,
    params: unknown[],
  ): Promise<PostgresJsonCursor> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query(
        `DECLARE json_rows NO SCROLL CURSOR FOR ${text}`,
        params,
      );
    } catch (error) {
      // The connection is in an unknown state: it is closed, not reused.
      client.release(error as Error);
      throw error;
    }
    return new PostgresJsonCursor(client);
  }

  async next(): Promise<string[] | undefined> {
    if (this.finished || this.closing) return undefined;
    const { rows } = await this.client.query<unknown[]>({
      text: `FETCH ${FETCH_ROWS} FROM json_rows`,
      rowMode: 'array',
    });
    if (rows.length === 0) {
      this.finished = true;
      void this.close();
      return undefined;
    }
    // pg parses json columns, and PostgreSQL's own text spaces its JSON out:
    // stringifying gives the compact text SQLite renders.
    return rows.map((row) => JSON.stringify(row[0]));
  }

  close(): Promise<void> {
    // pg runs a client's queries in order, so a ROLLBACK sent while a FETCH
    // is running follows it.
    this.closing ??= this.release();
    return this.closing;
  }

  private async release(): Promise<void> {
    try {
      await this.client.query('ROLLBACK');
      this.client.release();
    } catch (error) {
      this.client.release(error as Error);
    }
  }
}
