import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { captureRepositorySql, sqlFile } from '../scripts/repository-sql';
import { TEST_DATABASE } from './support/test-database';

/**
 * sql/<dialect>/*.sql hold the SQL every repository method sends; this
 * fails when the code sends anything else (on SQLite in the default pass,
 * on PostgreSQL in the PostgreSQL pass).
 */
describe(`repositories' SQL on ${TEST_DATABASE}`, () => {
  it('matches sql/: after a change to a repository, run npm run sql:generate (with TEST_POSTGRES_URL for PostgreSQL) and review the diff', async () => {
    const captured = await captureRepositorySql(TEST_DATABASE);
    for (const [repository, text] of captured) {
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
