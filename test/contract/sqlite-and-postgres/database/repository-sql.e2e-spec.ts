import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import {
  captureRepositorySql,
  type CapturedSql,
  sqlFile,
} from '../../../../scripts/repository-sql';
import { TEST_DATABASE } from '../../../support/test-database';

/**
 * sql/<dialect>/*.sql hold the SQL every repository method sends; this
 * fails when the code sends anything else (on SQLite in the default pass,
 * on PostgreSQL in the PostgreSQL pass), and when a repository method has
 * no capture, so none is missing from sql/.
 */
describe(`repositories' SQL on ${TEST_DATABASE}`, () => {
  let captured: CapturedSql;
  beforeAll(async () => {
    captured = await captureRepositorySql(TEST_DATABASE);
  });

  it('captures every public method of every *Repository class under src/ (add a call in scripts/repository-sql.ts, or a reason in METHODS_WITHOUT_SQL)', () => {
    expect(captured.uncaptured).toEqual([]);
  });

  it('records at least one statement for every capture', () => {
    expect(captured.silent).toEqual([]);
  });

  it('matches sql/: after a change to a repository, run npm run sql:generate (with TEST_POSTGRES_URL for PostgreSQL) and review the diff', () => {
    for (const [repository, text] of captured.files) {
      const file = sqlFile(TEST_DATABASE, repository);
      const committed = existsSync(file) ? readFileSync(file, 'utf8') : '';
      if (committed !== text) {
        throw new Error(
          `${relative(process.cwd(), file)} differs from the SQL ${repository} sends: run npm run sql:generate and commit the result`,
        );
      }
    }
  });
});
