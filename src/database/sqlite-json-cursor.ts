import Sqlite from 'better-sqlite3';
import { setImmediate as nextLoopPass } from 'node:timers/promises';
import type { JsonCursor } from './json-cursor';
import { forSqlite } from './sql';

/**
 * One chunk is read in a single synchronous stretch (better-sqlite3 does not
 * wait for I/O), so it is bounded both in size and in time: the event loop
 * is never held longer than TURN_MS by a list, however large.
 */
const CHUNK_CHARS = 64 * 1024;
const TURN_MS = 4;

/**
 * A SELECT on a read-only connection of its own. In WAL mode a statement
 * reads from the snapshot taken at its first step until it is finished or
 * reset, while the app's one write connection goes on committing: the list
 * neither waits for writes nor holds them up.
 */
export class SqliteJsonCursor implements JsonCursor {
  private readonly connection: Sqlite.Database;
  private readonly rows: IterableIterator<unknown>;
  private closed = false;

  constructor(file: string, text: string, params: unknown[]) {
    this.connection = new Sqlite(file, { readonly: true, fileMustExist: true });
    try {
      const statement = forSqlite(text, params);
      this.rows = this.connection
        .prepare(statement.text)
        .pluck()
        .iterate(...statement.values);
    } catch (error) {
      this.connection.close();
      throw error;
    }
  }

  async next(): Promise<string[] | undefined> {
    // A fast client drains each chunk at once; without this pass, chunk
    // after chunk would run in microtasks and starve timers and sockets.
    await nextLoopPass();
    if (this.closed) return undefined;
    const chunk: string[] = [];
    let size = 0;
    const started = performance.now();
    // At least one row per call: an empty chunk means the end of the list,
    // and a process the machine left waiting for longer than TURN_MS must
    // not look like one (it once ended a list early, as if complete).
    do {
      const step = this.rows.next();
      if (step.done) {
        this.release();
        break;
      }
      const document = String(step.value);
      chunk.push(document);
      size += document.length;
    } while (size < CHUNK_CHARS && performance.now() - started < TURN_MS);
    return chunk.length > 0 ? chunk : undefined;
  }

  close(): Promise<void> {
    this.release();
    return Promise.resolve();
  }

  private release(): void {
    if (this.closed) return;
    this.closed = true;
    // Finishing the statement ends its read transaction (the snapshot).
    this.rows.return?.();
    this.connection.close();
  }
}
