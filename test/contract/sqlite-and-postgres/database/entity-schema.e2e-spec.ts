import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../../../config/data-source-options';
import { loadConfiguration } from '../../../../config/configuration';
import { runPendingMigrations } from '../../../../config/run-migrations';
import {
  createTestDatabase,
  TEST_DATABASE,
} from '../../../support/test-database';

/**
 * The entities and the migrations describe one schema: on a database the
 * migrations built, the schema TypeORM would make from the entities needs
 * no change. Fails when an entity gains a column, index, default or
 * relation that no migration creates (or a migration changes one the
 * entities do not say), on SQLite in the default pass and on PostgreSQL in
 * the PostgreSQL pass.
 *
 * One difference is deliberate and mapped before comparing: a timestamp
 * column declares `Date` so one entity serves both databases; TypeORM reads
 * that as `timestamp` on PostgreSQL, where the migrations store an absolute
 * instant with milliseconds, `timestamptz(3)` (on SQLite both are datetime).
 */
describe(`entities and migrations on ${TEST_DATABASE}`, () => {
  it('describe the same schema (a change to an entity needs a migration)', async () => {
    const database = await createTestDatabase();
    const dataSource = new DataSource(
      buildDataSourceOptions(
        loadConfiguration({ DATABASE_URL: database.url }).database.connection,
      ),
    );
    try {
      await dataSource.initialize();
      await runPendingMigrations(dataSource);
      if (TEST_DATABASE === 'postgres') {
        for (const entity of dataSource.entityMetadatas) {
          for (const column of entity.columns) {
            if (column.type !== Date) continue;
            column.type = 'timestamptz';
            column.precision = 3;
          }
        }
      }
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map(({ query }) => query)).toEqual([]);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      await database.drop();
    }
  });
});
