import type { Logger } from 'typeorm';
import request from 'supertest';
import { SnapshotReader } from '../../../../src/database/snapshot-reader';
import { forSqlite } from '../../../../src/database/sql';
import { createProject } from '../../../support/project-fixtures';
import { TEST_DATABASE } from '../../../support/test-database';
import { createTestApp, TestApp } from '../../../support/test-app';

interface RecordedQuery {
  sql: string;
  params: unknown[];
}

/**
 * Records every statement the app sends while a request runs: through
 * TypeORM, and the streamed lists' statements, which run on connections of
 * their own.
 */
function recordQueries(t: TestApp): RecordedQuery[] {
  const recorded: RecordedQuery[] = [];
  const logger: Logger = {
    logQuery: (sql, params?: unknown[]) =>
      recorded.push({ sql, params: params ?? [] }),
    logQueryError: () => undefined,
    logQuerySlow: () => undefined,
    logSchemaBuild: () => undefined,
    logMigration: () => undefined,
    log: () => undefined,
  };
  Object.assign(t.dataSource, { logger });
  const reader = t.app.get(SnapshotReader);
  const openJson = reader.openJson.bind(reader);
  reader.openJson = (text: string, params: unknown[]) => {
    recorded.push(
      TEST_DATABASE === 'postgres'
        ? { sql: text, params }
        : (({ text: sql, values }) => ({ sql, params: values }))(
            forSqlite(text, params),
          ),
    );
    return openJson(text, params);
  };
  return recorded;
}

/**
 * The plan of a statement, as text lines. On PostgreSQL sequential scans are
 * switched off first: a tiny test table is always cheapest to scan, so the
 * question asked is "could an index serve this?". For the same reason, with
 * `sorts: false`, so are sorts (sorting a page's two rows is cheaper than
 * any index): the question is then "could an index give this order?", and
 * a Sort left in the plan means none can.
 */
async function planOf(
  t: TestApp,
  query: RecordedQuery,
  { sorts = true } = {},
): Promise<string[]> {
  if (TEST_DATABASE === 'postgres') {
    const runner = t.dataSource.createQueryRunner();
    try {
      await runner.query('SET enable_seqscan = off');
      if (!sorts) await runner.query('SET enable_sort = off');
      const rows: Array<{ 'QUERY PLAN': string }> = await runner.query(
        `EXPLAIN ${query.sql}`,
        query.params,
      );
      return rows.map((row) => row['QUERY PLAN']);
    } finally {
      await runner.query('RESET enable_seqscan');
      await runner.query('RESET enable_sort');
      await runner.release();
    }
  }
  const rows: Array<{ detail: string }> = await t.dataSource.query(
    `EXPLAIN QUERY PLAN ${query.sql}`,
    query.params,
  );
  return rows.map((row) => row.detail);
}

/**
 * A plan line that reads a whole table, or sorts the whole result. (SQLite's
 * "TEMP B-TREE FOR LAST TERM" sorts only the few children of each project.)
 */
const WASTEFUL =
  TEST_DATABASE === 'postgres'
    ? /Seq Scan/
    : /^SCAN \S+$|^SCAN \S+ \S+$|TEMP B-TREE FOR ORDER BY/;

describe('every read the API makes is served by an index', () => {
  let t: TestApp;
  let projectId: string;
  let recorded: RecordedQuery[];

  beforeAll(async () => {
    t = await createTestApp();
    projectId = (await createProject(t, { userId: 'indexed' })).id;
    await createProject(t, { userId: 'indexed' });
    recorded = recordQueries(t);
  });
  beforeEach(() => {
    recorded.length = 0;
  });
  afterAll(() => t.close());

  it.each([
    ['GET /api/projects/{id}', () => `/api/projects/${projectId}`],
    ['GET /api/projects?userId=', () => '/api/projects?userId=indexed'],
    [
      'GET /api/projects?userId=&limit=',
      () => '/api/projects?userId=indexed&limit=1',
    ],
  ])('%s', async (_label, path) => {
    await request(t.server).get(path()).expect(200);
    const selects = recorded.filter((q) => /^\s*SELECT/i.test(q.sql));
    expect(selects.length).toBeGreaterThan(0);
    for (const query of selects) {
      const plan = await planOf(t, query);
      expect({
        sql: query.sql,
        wasteful: plan.filter((l) => WASTEFUL.test(l.trim())),
      }).toEqual({
        sql: query.sql,
        wasteful: [],
      });
    }
  });

  // Each project's few children are still sorted inside their JSON array;
  // what must not happen is sorting the whole list.
  it('GET /api/projects (all) reads projects in index order, without sorting the list', async () => {
    await request(t.server).get('/api/projects').expect(200);
    const [projects] = recorded.filter((q) => /FROM "projects"/.test(q.sql));
    const plan = await planOf(t, projects);
    expect(plan.join('\n')).not.toMatch(
      TEST_DATABASE === 'postgres'
        ? /^\s*(->\s*)?Sort\b/m
        : /TEMP B-TREE FOR ORDER BY/,
    );
  });

  /**
   * Every order a page can be asked in (sort, order), with and without the
   * owner, in both views and with a filter: the first page and the one
   * after its cursor read projects in index order and stop at the limit;
   * none sorts the list. (`q` filters the rows read in that order: it
   * needs no index of its own.)
   */
  const SORTED_PAGES = [
    'sort=updatedAt&order=asc',
    'sort=createdAt',
    'sort=createdAt&order=asc',
    'sort=name',
    'sort=name&order=desc',
    'sort=name&view=summary',
    'sort=createdAt&q=project',
    'view=summary&includeTotal=true',
  ];
  it.each(
    SORTED_PAGES.flatMap((query) => [
      [`?${query}`, query],
      [`?userId=&${query}`, `userId=indexed&${query}`],
    ]),
  )(
    'GET /api/projects%s&limit= pages in index order',
    async (_label, query) => {
      const first = await request(t.server)
        .get(`/api/projects?${query}&limit=1`)
        .expect(200);
      expect(first.body.nextCursor).not.toBeNull();
      await request(t.server)
        .get(`/api/projects?${query}&limit=1&cursor=${first.body.nextCursor}`)
        .expect(200);
      const lists = recorded.filter((q) =>
        /^SELECT .* FROM "projects" "p"( WHERE .*)? ORDER BY/s.test(q.sql),
      );
      expect(lists).toHaveLength(2);
      for (const query of recorded.filter((q) => /^\s*SELECT/i.test(q.sql))) {
        const plan = await planOf(t, query);
        expect({
          sql: query.sql,
          wasteful: plan.filter((l) => WASTEFUL.test(l.trim())),
        }).toEqual({ sql: query.sql, wasteful: [] });
      }
      for (const list of lists) {
        expect(
          (await planOf(t, list, { sorts: false })).join('\n'),
        ).not.toMatch(
          TEST_DATABASE === 'postgres'
            ? /^\s*(->\s*)?(Incremental )?Sort\b/m
            : /TEMP B-TREE FOR ORDER BY/,
        );
      }
    },
  );
});
