import type { EntityManager } from 'typeorm';

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
  /** A Date as this database stores it, to compare with a stored column. */
  timestamp(value: Date): unknown;
}

interface SqliteStatement {
  text: string;
  /** For each `?`, the index of its value in the $-numbered parameters. */
  order: number[];
}

const sqliteStatements = new Map<string, SqliteStatement>();

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

export function sqlFor(manager: EntityManager): Sql {
  const isSqlite = manager.connection.options.type === 'better-sqlite3';
  return {
    rows: <T>(text: string, params: unknown[] = []) => {
      if (!isSqlite) return manager.query<T[]>(text, params);
      const statement = toSqlite(text);
      return manager.query<T[]>(
        statement.text,
        statement.order.map((index) => params[index]),
      );
    },
    // TypeORM stores SQLite datetimes as UTC text 'YYYY-MM-DD HH:MM:SS.SSS'.
    timestamp: (value: Date) =>
      isSqlite ? value.toISOString().replace('T', ' ').slice(0, 23) : value,
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

/** `$from, $from+1, …` for an IN list of `count` values. */
export function placeholders(count: number, from = 1): string {
  return Array.from({ length: count }, (_, i) => `$${i + from}`).join(', ');
}
