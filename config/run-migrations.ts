import { DataSource, MigrationExecutor } from 'typeorm';

/**
 * One arbitrary 64-bit key that every instance of this service uses for the
 * migration lock (pg_advisory_lock is per database).
 */
const MIGRATION_LOCK_KEY = '7240419003512866021';

/**
 * Applies pending migrations, each in its own transaction, and returns their
 * names.
 *
 * On PostgreSQL the work happens under a session advisory lock: replicas that
 * start at the same moment wait for each other, so each migration runs exactly
 * once and every instance comes up. TypeORM's own locking does not guarantee
 * that (typeorm/typeorm#4588). The migrations run on the connection that holds
 * the lock, so this works with a pool of any size. SQLite serialises writers
 * with its own file lock.
 */
export async function runPendingMigrations(
  dataSource: DataSource,
): Promise<string[]> {
  const isPostgres = dataSource.options.type === 'postgres';
  const queryRunner = dataSource.createQueryRunner();
  try {
    if (isPostgres) {
      await queryRunner.query('SELECT pg_advisory_lock($1)', [
        MIGRATION_LOCK_KEY,
      ]);
    }
    try {
      const executor = new MigrationExecutor(dataSource, queryRunner);
      executor.transaction = 'each';
      const applied = await executor.executePendingMigrations();
      return applied.map((migration) => migration.name);
    } finally {
      if (isPostgres) {
        await queryRunner.query('SELECT pg_advisory_unlock($1)', [
          MIGRATION_LOCK_KEY,
        ]);
      }
    }
  } finally {
    await queryRunner.release();
  }
}
