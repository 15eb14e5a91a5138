import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Server } from 'node:http';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { withEnv } from './environment';
import { createTestDatabase } from './test-database';

export interface TestApp {
  app: INestApplication;
  /** For supertest: `request(t.server)`. */
  server: Server;
  dataSource: DataSource;
  /** Empties every table (children first), for isolation between tests. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

const TABLES_CHILDREN_FIRST = [
  'assets',
  'tasks',
  'agents',
  'sections',
  'projects',
];

/**
 * Builds the app the way NestJS e2e suites do — from AppModule alone, with
 * nothing from main.ts — on a fresh database of its own (a SQLite file, or a
 * PostgreSQL database in the PostgreSQL pass).
 * `env` sets configuration for this app (undefined unsets a variable).
 */
export async function createTestApp(
  env: Record<string, string | undefined> = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const moduleRef = await withEnv(
    {
      DATABASE_URL: database.url,
      IMAGE_API_KEY: undefined,
      IMAGE_API_URL: undefined,
      ...env,
    },
    () => Test.createTestingModule({ imports: [AppModule] }).compile(),
  );
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  const dataSource = app.get(DataSource);
  return {
    app,
    server: app.getHttpServer() as Server,
    dataSource,
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
