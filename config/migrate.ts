import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';
import {
  ConfigurationError,
  ConfigurationErrors,
} from '../src/environment/env-values';
import { loadConfiguration } from './configuration';
import { runPendingMigrations } from './run-migrations';

/**
 * `npm run migration:run`: applies pending migrations to DATABASE_URL and
 * exits — for a Kubernetes Job or an init step, with MIGRATIONS_RUN=false on
 * the app. Needs only the build output and production dependencies.
 */
async function migrate(): Promise<void> {
  const { database } = loadConfiguration();
  const dataSource = await new DataSource(
    buildDataSourceOptions(database.connection),
  ).initialize();
  try {
    const applied = await runPendingMigrations(dataSource);
    console.log(
      applied.length === 0
        ? 'No pending migrations'
        : `Applied ${applied.join(', ')}`,
    );
  } finally {
    await dataSource.destroy();
  }
}

migrate().catch((error: unknown) => {
  console.error(
    error instanceof ConfigurationError || error instanceof ConfigurationErrors
      ? error.message
      : `Migration failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
