import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { withEnv } from './environment';

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
 * nothing from main.ts — on a fresh SQLite file of its own.
 * `env` sets configuration for this app (undefined unsets a variable).
 */
export async function createTestApp(
  env: Record<string, string | undefined> = {},
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'workspace-e2e-'));
  const moduleRef = await withEnv(
    {
      DATABASE_URL: `file:${join(dir, 'workspace.db')}`,
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
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
