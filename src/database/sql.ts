import type Sqlite from 'better-sqlite3';
import type { EntityManager } from 'typeorm';
import { ownSpansEnabled } from '../tracing/spans';

/** What a PostgreSQL pool (pg's Pool, TypeORM's driver.master) offers here. */
interface PgPool {
  query<T>(statement: {
    name?: string;
    text: string;
    values: unknown[];
  }): Promise<{ rows: T[] }>;
}

/**
 * Names of PostgreSQL prepared statements, by text: pg prepares a named
 * statement once per connection and then only binds and executes it, so
 * the server does not parse and plan the same read again on every request.
 */
const preparedNames = new Map<string, string>();

/** The statements are a handful of fixed texts; this only bounds a mistake. */
const PREPARED_LIMIT = 500;
const preparedName = (text: string): string | undefined => {
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < PREPARED_LIMIT) {
    name = `read_${preparedNames.size + 1}`;
    preparedNames.set(text, name);
  }
  return name;
};

/**
 * Hand-written SQL for the read paths that every page load hits, where
 * TypeORM's query building and entity hydration cost more than the query.
 * Statements are written once with PostgreSQL placeholders ($1, $2…); for
 * SQLite they become positional `?` with the parameters laid out to match
 * (better-sqlite3 binds arrays only to `?`). Both drivers keep prepared
 * statements cached by their text.
 */
export interface Sql {
  rows<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs an INSERT, UPDATE or DELETE; resolves to the rows it changed. */
  changes(text: string, params?: unknown[]): Promise<number>;
  /** Runs an UPDATE or DELETE … RETURNING; resolves to the rows it returned. */
  changedRows<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** A Date as this database stores it, to compare with a stored column. */
  timestamp(value: Date): unknown;
  /** Expressions that render JSON inside a statement (see JsonSql). */
  json: JsonSql;
}

/**
 * Response bodies rendered by the database itself, so a read builds no row
 * objects and serializes nothing in JavaScript: for a list of 1,000 projects
 * (12,000 rows) that is most of the work. Both dialects keep keys in the
 * order given and write strings, numbers and null as JSON.stringify does.
 */
export interface JsonSql {
  /**
   * A JSON object of `fields`, in that key order: each an SQL expression
   * (written as a JSON value) or a piece `object` or `array` built.
   */
  object(fields: Record<string, string | JsonPiece>): JsonPiece;
  /**
   * A JSON array of `element` over the rows of `from` (`FROM … WHERE …`),
   * in `order`; `[]` when there are none.
   */
  array(element: JsonPiece, from: string, order: string): JsonPiece;
  /** A stored timestamp as ISO-8601 UTC text with milliseconds. */
  timestamp(column: string): string;
  /**
   * A text column holding compact JSON the service wrote, embedded as JSON
   * (not as a string); NULL as null.
   */
  stored(column: string): JsonPiece;
  /** A piece as a text column of compact JSON, ready to send. */
  document(piece: JsonPiece): string;
}

/**
 * An SQL expression that is JSON already (an object or array built by
 * JsonSql), as opposed to a column or value still to be written as JSON.
 */
export class JsonPiece {
  constructor(readonly sql: string) {}
}

const objectArguments = (fields: Record<string, string | JsonPiece>) =>
  Object.entries(fields)
    .map(([key, value]) => `'${key}', ${sqlOf(value)}`)
    .join(', ');

const sqlOf = (value: string | JsonPiece) =>
  value instanceof JsonPiece ? value.sql : value;

const sqliteJson: JsonSql = {
  object: (fields) => new JsonPiece(`json_object(${objectArguments(fields)})`),
  // json_object returns its JSON as compact text already.
  document: (piece) => piece.sql,
  // JSONB, not JSON text: a JSON value loses its "this is JSON" subtype
  // when it leaves a scalar subquery (SQLite 3.54 enforces it), so a text
  // array would be embedded as a string; a JSONB blob is JSON by itself, and
  // json_object writes it out as compact text.
  array: (element, from, order) =>
    new JsonPiece(
      `(SELECT jsonb_group_array(${element.sql} ORDER BY ${order}) ${from})`,
    ),
  // TypeORM writes SQLite datetimes as UTC text 'YYYY-MM-DD HH:MM:SS.SSS'.
  timestamp: (column) => `(replace(${column}, ' ', 'T') || 'Z')`,
  stored: (column) => new JsonPiece(`json(${column})`),
};

/**
 * PostgreSQL's own json_build_object and json_agg space their text out
 * (`{"id" : 1}`), so the JSON is assembled as text instead: each value
 * written by to_json (which escapes strings as JSON.stringify does), null as
 * `null`, joined without spaces. The result is the compact text
 * JSON.stringify would write, sent as it is (no parse, no re-serialization).
 * Nested pieces stay text and are joined in as they are: typed json, each
 * was parsed again at every level it was embedded in, which took a quarter
 * to a third of the statement's time for a full list.
 */
const postgresJson: JsonSql = {
  object: (fields) => {
    const members = Object.entries(fields).map(([key, value], index) => {
      const text =
        value instanceof JsonPiece ? value.sql : `to_json(${value})::text`;
      return `'${index === 0 ? '' : ','}"${key}":' || COALESCE(${text}, 'null')`;
    });
    return new JsonPiece(`('{' || ${members.join(' || ')} || '}')`);
  },
  array: (element, from, order) =>
    new JsonPiece(
      `(SELECT COALESCE('[' || string_agg(${element.sql}, ',' ORDER BY ${order}) || ']', '[]') ${from})`,
    ),
  timestamp: (column) =>
    `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  // Already compact JSON text: joined in as it is (object() writes NULL as null).
  stored: (column) => new JsonPiece(column),
  document: (piece) => piece.sql,
};

/** The JSON expressions of a TypeORM database type. */
export const jsonSqlFor = (databaseType: string): JsonSql =>
  databaseType === 'better-sqlite3' ? sqliteJson : postgresJson;

interface SqliteStatement {
  text: string;
  /** For each `?`, the index of its value in the $-numbered parameters. */
  order: number[];
}

const sqliteStatements = new Map<string, SqliteStatement>();

/** A $-numbered statement as SQLite's positional `?` and the values to bind. */
export function forSqlite(
  text: string,
  params: unknown[],
): { text: string; values: unknown[] } {
  const statement = toSqlite(text);
  return {
    text: statement.text,
    values: statement.order.map((index) => params[index]),
  };
}

function toSqlite(text: string): SqliteStatement {
  let statement = sqliteStatements.get(text);
  if (statement === undefined) {
    const order: number[] = [];
    const converted = text.replace(/\$(\d+)/g, (_match, n: string) => {
      order.push(Number(n) - 1);
      return '?';
    });
    statement = { text: converted, order };
    sqliteStatements.set(text, statement);
  }
  return statement;
}

/** Prepared statements of SQLite connections, by their `?` text. */
const sqliteStatementCache = new WeakMap<
  Sqlite.Database,
  Map<string, Sqlite.Statement>
>();

function sqliteStatement(
  connection: Sqlite.Database,
  text: string,
): Sqlite.Statement {
  let statements = sqliteStatementCache.get(connection);
  if (statements === undefined) {
    statements = new Map();
    sqliteStatementCache.set(connection, statements);
  }
  let statement = statements.get(text);
  if (statement === undefined) {
    statement = connection.prepare(text);
    // The statements are a handful of fixed texts; this only bounds a mistake.
    if (statements.size < PREPARED_LIMIT) statements.set(text, statement);
  }
  return statement;
}

/**
 * The better-sqlite3 connection a read outside a transaction can use
 * directly, or undefined: on PostgreSQL, inside a transaction (its query
 * runner's), and while statements are traced (through the traced runner).
 */
function directSqlite(manager: EntityManager): Sqlite.Database | undefined {
  if (
    manager.connection.options.type !== 'better-sqlite3' ||
    manager.queryRunner ||
    ownSpansEnabled()
  ) {
    return undefined;
  }
  return (
    manager.connection.driver as unknown as {
      databaseConnection?: Sqlite.Database;
    }
  ).databaseConnection;
}

export function sqlFor(manager: EntityManager): Sql {
  const isSqlite = manager.connection.options.type === 'better-sqlite3';
  const native = (text: string, params: unknown[]) =>
    isSqlite ? forSqlite(text, params) : { text, values: params };
  // Outside a transaction on SQLite, a read goes straight to better-sqlite3
  // (synchronous; DatabaseService runs it in its turn): TypeORM's query
  // runner around it (its events, statement cache and three awaits) cost
  // more than a small statement. Its logger still sees every statement.
  const sqlite = directSqlite(manager);
  // Outside a transaction on PostgreSQL, a statement goes straight to the
  // pool TypeORM holds: pg checks a connection out and back in itself, and
  // TypeORM's query runner around it (created, connected, broadcast to,
  // released per statement) was about an eighth of a GET's CPU. Its
  // logger still sees every statement.
  const pool =
    !isSqlite && !manager.queryRunner
      ? (manager.connection.driver as unknown as { master: PgPool }).master
      : undefined;
  const logger = manager.connection.logger;
  // Only a structured result reports the affected count, and holds the rows
  // of an UPDATE … RETURNING, the same way on both drivers; it needs a
  // query runner (a transaction's, or a fresh one).
  const structured = async (text: string, params: unknown[]) => {
    const statement = native(text, params);
    const runner =
      manager.queryRunner ?? manager.connection.createQueryRunner();
    try {
      return await runner.query(statement.text, statement.values, true);
    } finally {
      if (runner !== manager.queryRunner) await runner.release();
    }
  };
  return {
    rows: async <T>(text: string, params: unknown[] = []) => {
      if (sqlite) {
        const statement = forSqlite(text, params);
        logger.logQuery(statement.text, statement.values);
        return sqliteStatement(sqlite, statement.text).all(
          // better-sqlite3 binds no booleans (TypeORM's runner turns them to 1/0).
          ...statement.values.map((value) =>
            typeof value === 'boolean' ? Number(value) : value,
          ),
        ) as T[];
      }
      if (pool) {
        logger.logQuery(text, params);
        const name = preparedName(text);
        return (await pool.query<T>({ name, text, values: params })).rows;
      }
      const statement = native(text, params);
      return manager.query<T[]>(statement.text, statement.values);
    },
    changes: async (text: string, params: unknown[] = []) =>
      (await structured(text, params)).affected ?? 0,
    changedRows: async <T>(text: string, params: unknown[] = []) =>
      ((await structured(text, params)).records ?? []) as T[],
    // TypeORM stores SQLite datetimes as UTC text 'YYYY-MM-DD HH:MM:SS.SSS'.
    timestamp: (value: Date) =>
      isSqlite ? value.toISOString().replace('T', ' ').slice(0, 23) : value,
    json: jsonSqlFor(manager.connection.options.type),
  };
}

/**
 * A stored timestamp as the API shows it: ISO-8601 UTC with milliseconds.
 * PostgreSQL returns a Date; SQLite the text TypeORM wrote.
 */
export function isoTimestamp(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  return text.includes('T') ? text : `${text.replace(' ', 'T')}Z`;
}
