import type { DataSource, QueryRunner } from 'typeorm';
import { inSpan } from '../tracing/spans';

const TRACED = Symbol('statement spans');

type Query = QueryRunner['query'];

/**
 * One span per SQLite statement, as the pg instrumentation makes for
 * PostgreSQL: better-sqlite3 has no instrumentation of its own. Every query
 * TypeORM's better-sqlite3 driver runs goes through its query runner's
 * `query`, which is wrapped here. The span holds the statement's text with
 * its `?` placeholders, never the values (the service binds every value).
 */
export function traceSqliteStatements(dataSource: DataSource): void {
  const driver = dataSource.driver as {
    createQueryRunner(mode: string): QueryRunner;
  };
  const create = driver.createQueryRunner.bind(driver);
  driver.createQueryRunner = (mode: string) => traced(create(mode));
}

function traced(runner: QueryRunner): QueryRunner {
  const marked = runner as QueryRunner & { [TRACED]?: true };
  if (marked[TRACED]) return runner;
  marked[TRACED] = true;
  const query: Query = runner.query.bind(runner);
  runner.query = ((text: string, ...rest: unknown[]) => {
    const operation = operationOf(text);
    return inSpan(
      operation ?? 'sqlite',
      {
        kind: 2, // SpanKind.CLIENT
        attributes: {
          'db.system.name': 'sqlite',
          'db.query.text': text,
          ...(operation ? { 'db.operation.name': operation } : {}),
        },
      },
      () => (query as (...args: unknown[]) => Promise<unknown>)(text, ...rest),
    );
  }) as Query;
  return runner;
}

/** The statement's first keyword (SELECT, INSERT, BEGIN…), if it has one. */
export function operationOf(text: string): string | undefined {
  return /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase();
}
