import type { Pool, PoolClient } from 'pg';
import type { JsonCursor } from './json-cursor';

/** About 64 KB of project documents per round trip, like a SQLite chunk: with larger fetches the garbage of each, promoted while the next one arrives, grows the heap faster than the list is sent. */
const FETCH_ROWS = 25;
/**
 * The characters one FETCH aims at: FETCH_ROWS documents of a usual size
 * (a listed project is about 2.7 K characters, a few tasks add more).
 */
const FETCH_TARGET_CHARS = 96 * 1024;

/**
 * How many rows the next FETCH asks for: as many as make FETCH_TARGET_CHARS
 * at the size of the rows just read, 1 to FETCH_ROWS (the first FETCH, of
 * unknown rows, asks for one). A PATCHed name can be nearly as large as a
 * body (1 MB): 25 such rows per FETCH grew the process by 137 MB for a
 * 38 MB list; sized by what the rows weigh, a FETCH after one such row
 * holds one, and usual rows still come 25 at a time.
 */
function rowsToFetch(lastRows: number, lastChars: number): number {
  if (lastRows === 0) return 1;
  const average = Math.max(1, lastChars / lastRows);
  return Math.min(
    FETCH_ROWS,
    Math.max(1, Math.floor(FETCH_TARGET_CHARS / average)),
  );
}

/**
 * A server-side cursor in a REPEATABLE READ, READ ONLY transaction: every
 * FETCH reads the snapshot the transaction took at its first statement, and
 * PostgreSQL keeps only the rows of one FETCH in this process at a time.
 * Writers are never blocked by it (MVCC).
 */
export class PostgresJsonCursor implements JsonCursor {
  private finished = false;
  private closing: Promise<void> | undefined;
  private lastRows = 0;
  private lastChars = 0;

  /**
   * A checked-out client that loses its connection (a server restart, an
   * administrator ending the session) emits 'error'; without a listener
   * that would crash the process. The failure reaches the reader through
   * the next query instead.
   */
  private readonly ignoreConnectionError = () => undefined;

  private constructor(private readonly client: PoolClient) {
    client.on('error', this.ignoreConnectionError);
  }

  static async open(
    pool: Pool,
    text: string,
    params: unknown[],
  ): Promise<PostgresJsonCursor> {
    const client = await pool.connect();
    const cursor = new PostgresJsonCursor(client);
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      // The whole list's estimated cost is far above jit_above_cost, and
      // compiling it took 300-350 ms before the first row on 100,000
      // projects, for no gain in total time (6.3-6.8 s either way).
      await client.query('SET LOCAL jit = off');
      await client.query(
        `DECLARE json_rows NO SCROLL CURSOR FOR ${text}`,
        params,
      );
    } catch (error) {
      await cursor.close();
      throw error;
    }
    return cursor;
  }

  async next(): Promise<string[] | undefined> {
    if (this.finished || this.closing) return undefined;
    const count = rowsToFetch(this.lastRows, this.lastChars);
    const { rows } = await this.client.query<[string]>({
      text: `FETCH ${count} FROM json_rows`,
      rowMode: 'array',
    });
    if (rows.length === 0) {
      this.finished = true;
      void this.close();
      return undefined;
    }
    const documents = rows.map((row) => row[0]);
    this.lastRows = documents.length;
    this.lastChars = 0;
    for (const document of documents) this.lastChars += document.length;
    return documents;
  }

  close(): Promise<void> {
    // pg runs a client's queries in order, so a ROLLBACK sent while a FETCH
    // is running follows it.
    this.closing ??= this.release();
    return this.closing;
  }

  private async release(): Promise<void> {
    let failure: Error | undefined;
    try {
      await this.client.query('ROLLBACK');
    } catch (error) {
      failure = error as Error;
    }
    this.client.off('error', this.ignoreConnectionError);
    // After a failure the connection is closed, not returned to the pool.
    this.client.release(failure);
  }
}
