import { INestApplication, LoggerService } from '@nestjs/common';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import type { Server } from 'node:http';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { withEnv } from './environment';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestApp {
  app: INestApplication;
  /** For supertest: `request(t.server)`. */
  server: Server;
  dataSource: DataSource;
  /** The DATABASE_URL the app runs on. */
  databaseUrl: string;
  /** Empties every table (children first), for isolation between tests. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

const TABLES_CHILDREN_FIRST = [
  'run_steps',
  'runs',
  'site_files',
  'site_versions',
  'sites',
  'stored_images',
  'idempotency_keys',
  'asset_contents',
  'asset_slot_reservations',
  'assets',
  'tasks',
  'agents',
  'sections',
  'projects',
];

/**
 * The production settings of logo generation, unset so that a
 * developer's shell never leaks into a test: every test app starts from the
 * documented defaults, except for TEST_DEFAULTS.
 */
const PRODUCTION_SETTINGS_UNSET = {
  IMAGE_API_DEADLINE_MS: undefined,
  IMAGE_API_RETRY_BASE_MS: undefined,
  IMAGE_API_RETRY_MAX_MS: undefined,
  IMAGE_API_RETRY_AFTER_CAP_MS: undefined,
  IMAGE_API_CONCURRENCY: undefined,
  IMAGE_API_QUEUE_LIMIT: undefined,
  IMAGE_API_BUSY_RETRY_AFTER_S: undefined,
  LOGO_RATE_WINDOW_S: undefined,
  PROJECT_CREATE_RATE_LIMIT: undefined,
  PROJECT_CREATE_RATE_WINDOW_S: undefined,
  REDIS_URL: undefined,
  REDIS_KEY_PREFIX: undefined,
  TRUST_PROXY: undefined,
  ASSET_STORE: undefined,
  ASSET_MAX_PER_PROJECT: undefined,
  ASSET_URL_TTL_S: undefined,
};

/**
 * Off unless a test turns them on: upstream retries and the per-client rate
 * limit. The contract suites send one upstream call per request (and
 * count them), and far more than 60 requests a minute from one address;
 * the suites of those features set the values they test.
 */
const TEST_DEFAULTS = {
  IMAGE_API_MAX_RETRIES: '0',
  LOGO_RATE_LIMIT: '0',
  // Any free port: test apps run side by side.
  SITES_PORT: '0',
};

/**
 * Builds the app the way NestJS e2e suites do — from AppModule alone, with
 * nothing from main.ts — on a fresh database of its own (a SQLite file, or a
 * PostgreSQL database in the PostgreSQL pass).
 * `env` sets configuration for this app (undefined unsets a variable);
 * `options.logger` receives its log lines (none are kept otherwise);
 * `options.database` replaces the fresh database (the app drops it on close);
 * `options.override` replaces providers, e.g. to inject a fault.
 */
export async function createTestApp(
  env: Record<string, string | undefined> = {},
  options: {
    logger?: LoggerService;
    database?: TestDatabase;
    override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const moduleRef = await withEnv(
    {
      DATABASE_URL: database.url,
      IMAGE_API_KEY: undefined,
      IMAGE_API_URL: undefined,
      ...PRODUCTION_SETTINGS_UNSET,
      ...TEST_DEFAULTS,
      ...env,
    },
    () => {
      const builder = Test.createTestingModule({ imports: [AppModule] });
      return (options.override?.(builder) ?? builder).compile();
    },
  );
  const app = moduleRef.createNestApplication({
    logger: options.logger ?? false,
  });
  await app.init();
  const dataSource = app.get(DataSource);
  return {
    app,
    server: app.getHttpServer() as Server,
    dataSource,
    databaseUrl: database.url,
    async reset() {
      for (const table of TABLES_CHILDREN_FIRST) {
        await dataSource.query(`DELETE FROM "${table}"`);
      }
    },
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
