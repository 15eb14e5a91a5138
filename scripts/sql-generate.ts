import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { captureRepositorySql, type Dialect, sqlFile } from './repository-sql';

/**
 * Writes sql/<dialect>/<repository>.sql: the SQL every repository method
 * sends. SQLite always; PostgreSQL when TEST_POSTGRES_URL names a server
 * (a scratch database is created on it and dropped).
 */
async function main(): Promise<void> {
  const dialects: Dialect[] = ['sqlite'];
  if (process.env.TEST_POSTGRES_URL) dialects.push('postgres');
  else {
    console.warn(
      'TEST_POSTGRES_URL is not set: sql/postgres/ was not regenerated',
    );
  }
  for (const dialect of dialects) {
    const { files, uncaptured, silent } = await captureRepositorySql(dialect);
    if (uncaptured.length > 0 || silent.length > 0) {
      throw new Error(
        `every repository method needs a capture in scripts/repository-sql.ts that sends SQL (or an entry in METHODS_WITHOUT_SQL); not captured: ${uncaptured.join(', ') || 'none'}; captured without SQL: ${silent.join(', ') || 'none'}`,
      );
    }
    for (const [repository, text] of files) {
      const file = sqlFile(dialect, repository);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      console.log(`wrote ${relative(process.cwd(), file)}`);
    }
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
