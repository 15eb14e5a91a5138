import request from 'supertest';
import {
  DataSource,
  TableColumn,
  type MigrationInterface,
  type QueryRunner,
} from 'typeorm';
import { buildDataSourceOptions } from '../../../../config/data-source-options';
import { runPendingMigrations } from '../../../../config/run-migrations';
import { databaseConfig } from '../../../../src/database/database.config';
import { MIGRATIONS } from '../../../../migrations';
import { seedProjects } from '../../../support/seed-projects';
import { createTestApp } from '../../../support/test-app';
import { randomBytes } from 'node:crypto';
import {
  createTestDatabase,
  TEST_DATABASE,
} from '../../../support/test-database';

/**
 * A database made before projects had a version, upgraded by the next
 * start-up: on SQLite and PostgreSQL alike, nothing is lost (adding the
 * column must not rebuild the projects table, whose cascade would take
 * every child row with it) and every project starts at version 1.
 */
describe('upgrading a database made before project versions', () => {
  it('keeps every project with its sections and agents, each at version 1', async () => {
    const database = await createTestDatabase();
    const before = new DataSource({
      ...buildDataSourceOptions(
        databaseConfig({ DATABASE_URL: database.url }).connection,
      ),
      migrations: MIGRATIONS.slice(0, 2),
    });
    await before.initialize();
    await before.runMigrations();
    await before.destroy();
    const ids = await seedProjects(database.url, 3, 1);

    const t = await createTestApp({}, { database });
    try {
      const [{ n }] = await t.dataSource.query<Array<{ n: number | string }>>(
        'SELECT COUNT(*) AS "n" FROM "sections"',
      );
      expect(Number(n)).toBe(24);
      for (const id of ids) {
        const res = await request(t.server)
          .get(`/api/projects/${id}`)
          .expect(200);
        expect(res.headers.etag).toBe('"1"');
        expect(res.body.project.sections).toHaveLength(8);
        expect(res.body.project.agents).toHaveLength(3);
      }
      await request(t.server)
        .patch(`/api/projects/${ids[0]}`)
        .set('If-Match', '"1"')
        .send({ name: 'Upgraded' })
        .expect(200)
        .expect('ETag', '"2"');
    } finally {
      await t.close();
    }
  });
});

/**
 * Hosted logos stored whole (one BLOB or bytea each) before they were
 * stored in 256 KB parts: the upgrade splits each into parts, and its URL
 * serves the same bytes afterwards.
 */
describe('upgrading a database with hosted logos stored whole', () => {
  it('serves every hosted logo byte for byte after the upgrade', async () => {
    const database = await createTestDatabase();
    const before = new DataSource({
      ...buildDataSourceOptions(
        databaseConfig({ DATABASE_URL: database.url }).connection,
      ),
      migrations: MIGRATIONS.slice(0, 5),
    });
    await before.initialize();
    await before.runMigrations();
    // 2.3 parts, 1 part exactly, and less than one.
    const images = [600 * 1024, 256 * 1024, 1000].map((size) => ({
      id: randomBytes(16).toString('hex'),
      bytes: Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        randomBytes(size - 8),
      ]),
    }));
    const insert =
      TEST_DATABASE === 'postgres'
        ? 'INSERT INTO "stored_images" ("id", "mediaType", "size", "bytes", "expiresAt") VALUES ($1, $2, $3, $4, $5)'
        : 'INSERT INTO "stored_images" ("id", "mediaType", "size", "bytes", "expiresAt") VALUES (?, ?, ?, ?, ?)';
    for (const image of images) {
      await before.query(insert, [
        image.id,
        'image/png',
        image.bytes.length,
        image.bytes,
        Date.now() + 3_600_000,
      ]);
    }
    await before.destroy();

    const t = await createTestApp({}, { database });
    try {
      for (const image of images) {
        const res = await request(t.server)
          .get(`/api/ai/logos/${image.id}.png`)
          .buffer(true)
          .parse((answer, done) => {
            const chunks: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => chunks.push(chunk));
            answer.on('end', () => done(null, Buffer.concat(chunks)));
          })
          .expect(200);
        expect(Buffer.compare(res.body as Buffer, image.bytes)).toBe(0);
      }
      const [{ n }] = await t.dataSource.query<Array<{ n: number | string }>>(
        'SELECT COUNT(*) AS "n" FROM "stored_images" WHERE "bytes" IS NOT NULL',
      );
      expect(Number(n)).toBe(0);
    } finally {
      await t.close();
    }
  });
});

/**
 * A column added to tasks. The migration that adds it is a plain ALTER
 * TABLE … ADD COLUMN with a constant default, the same text on both
 * databases: each adds the column in place, every existing row takes the
 * default. TypeORM's `queryRunner.addColumn` does that on PostgreSQL only;
 * on SQLite it rebuilds the table (a copy named temporary_tasks, every row
 * copied, the old table dropped, the copy renamed, its indexes made again)
 * from the definition its query runner cached, and one run of migrations
 * shares one query runner: after the first schema's tasks were dropped and
 * made anew, and queuePlace added in plain SQL, that definition is the
 * first schema's (docs/development.md, "Adding a field to a task").
 */
describe('adding a column to tasks', () => {
  const PROJECT_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
  const TASK_ID = '019aa8f4-1c2d-7e3f-8a4b-5c6d7e8f9a0b';
  const AT = '2026-11-22 03:39:09.321';

  /** A DataSource on a fresh database, not migrated yet. */
  async function freshDatabase(
    migrations: Array<new () => MigrationInterface>,
  ): Promise<{ dataSource: DataSource; drop: () => Promise<void> }> {
    const database = await createTestDatabase();
    const dataSource = new DataSource({
      ...buildDataSourceOptions(
        databaseConfig({ DATABASE_URL: database.url }).connection,
      ),
      migrations,
    });
    await dataSource.initialize();
    return {
      dataSource,
      drop: async () => {
        await dataSource.destroy();
        await database.drop();
      },
    };
  }

  /** One project with one task, in a migrated database. */
  async function addATask(dataSource: DataSource): Promise<void> {
    const p = (n: number) => (TEST_DATABASE === 'postgres' ? `$${n}` : '?');
    await dataSource.query(
      `INSERT INTO "projects" ("id", "name", "description", "userId", "createdAt", "updatedAt") VALUES (${p(1)}, 'P', NULL, 'u', ${p(2)}, ${p(3)})`,
      [PROJECT_ID, AT, AT],
    );
    await dataSource.query(
      `INSERT INTO "tasks" ("id", "projectId", "type", "status", "input", "assetIds", "createdAt", "updatedAt", "runAfter") VALUES (${p(1)}, ${p(2)}, 'logo', 'QUEUED', '{}', '[]', ${p(3)}, ${p(4)}, ${p(5)})`,
      [TASK_ID, PROJECT_ID, AT, AT, AT],
    );
  }

  /** What a rebuild would change: the table's storage, its indexes. */
  async function shapeOfTasks(dataSource: DataSource): Promise<unknown> {
    return dataSource.query<unknown[]>(
      TEST_DATABASE === 'postgres'
        ? `SELECT 'table' AS "type", relname AS "name", relfilenode::text AS "storage" FROM pg_class WHERE relname = 'tasks' UNION ALL SELECT 'index', indexname, NULL FROM pg_indexes WHERE tablename = 'tasks' ORDER BY 1, 2`
        : `SELECT "type", "name", CASE "type" WHEN 'table' THEN "rootpage" END AS "storage" FROM "sqlite_master" WHERE "tbl_name" = 'tasks' ORDER BY 1, 2`,
    );
  }

  it('a plain ALTER TABLE … ADD COLUMN runs with the other migrations on a fresh database', async () => {
    const { dataSource, drop } = await freshDatabase([
      ...MIGRATIONS,
      ExampleTaskRank1899999999000,
    ]);
    try {
      expect(await runPendingMigrations(dataSource)).toContain(
        'ExampleTaskRank1899999999000',
      );
      await addATask(dataSource);
      const [task] = await dataSource.query<unknown[]>(
        'SELECT "id", "queuePlace", "exampleRank" FROM "tasks"',
      );
      expect(task).toEqual({ id: TASK_ID, queuePlace: 0, exampleRank: 0 });
    } finally {
      await drop();
    }
  });

  it('a plain ALTER TABLE … ADD COLUMN keeps every task, in the same table with its indexes, at the default', async () => {
    const { dataSource, drop } = await freshDatabase(MIGRATIONS);
    try {
      await runPendingMigrations(dataSource);
      await addATask(dataSource);
      const before = await shapeOfTasks(dataSource);
      dataSource.migrations.push(new ExampleTaskRank1899999999000());
      expect(await runPendingMigrations(dataSource)).toEqual([
        'ExampleTaskRank1899999999000',
      ]);
      const [task] = await dataSource.query<unknown[]>(
        'SELECT "id", "exampleRank" FROM "tasks"',
      );
      expect(task).toEqual({ id: TASK_ID, exampleRank: 0 });
      const after = await shapeOfTasks(dataSource);
      expect(after).toEqual(before);
      expect(JSON.stringify(after)).toContain('idx_tasks_status_lease_id');
    } finally {
      await drop();
    }
  });

  it("TypeORM's addColumn on tasks, run with the other migrations, fails on SQLite naming a column of the first schema", async () => {
    const { dataSource, drop } = await freshDatabase([
      ...MIGRATIONS,
      AddColumnTaskRank1899999999001,
    ]);
    try {
      const run = runPendingMigrations(dataSource);
      if (TEST_DATABASE === 'postgres') {
        // ALTER TABLE in place: the cached definition is not used.
        await expect(run).resolves.toContain('AddColumnTaskRank1899999999001');
      } else {
        // The rebuild copies the columns the cache remembers: tasks as the
        // initial schema made them, dropped by RunningTasks.
        await expect(run).rejects.toThrow('no such column: "title"');
      }
    } finally {
      await drop();
    }
  });
});

/** A column added as docs/development.md says: plain SQL, both dialects. */
class ExampleTaskRank1899999999000 implements MigrationInterface {
  name = 'ExampleTaskRank1899999999000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "tasks" ADD COLUMN "exampleRank" integer NOT NULL DEFAULT 0',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "tasks" DROP COLUMN "exampleRank"');
  }
}

/** The same column through TypeORM's helper, as the TypeORM docs show it. */
class AddColumnTaskRank1899999999001 implements MigrationInterface {
  name = 'AddColumnTaskRank1899999999001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'tasks',
      new TableColumn({ name: 'exampleRank', type: 'integer', default: 0 }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('tasks', 'exampleRank');
  }
}

/**
 * Tasks made before they had a progress: the upgrade gives each the one
 * it had, in the text the tasks repository writes (its keep compares it).
 */
describe('upgrading tasks made before progress', () => {
  it('a succeeded task kept all its assets; any other kept none of its count, the brand kit’s 8 or 1', async () => {
    const database = await createTestDatabase();
    const dataSource = new DataSource({
      ...buildDataSourceOptions(
        databaseConfig({ DATABASE_URL: database.url }).connection,
      ),
      migrations: MIGRATIONS.filter(
        (migration) => migration.name !== 'TaskProgress1764550000000',
      ),
    });
    await dataSource.initialize();
    try {
      await runPendingMigrations(dataSource);
      const p = (n: number) => (TEST_DATABASE === 'postgres' ? `$${n}` : '?');
      const at = '2026-11-22 03:39:09.321';
      const projectId = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
      await dataSource.query(
        `INSERT INTO "projects" ("id", "name", "description", "userId", "createdAt", "updatedAt") VALUES (${p(1)}, 'P', NULL, 'u', ${p(2)}, ${p(3)})`,
        [projectId, at, at],
      );
      const tasks: Array<[string, string, string, object, string[]]> = [
        [
          '019aa8f4-0000-7000-8000-000000000001',
          'logo',
          'SUCCEEDED',
          { count: 2 },
          ['a', 'b'],
        ],
        [
          '019aa8f4-0000-7000-8000-000000000002',
          'logo',
          'FAILED',
          { count: 3 },
          [],
        ],
        ['019aa8f4-0000-7000-8000-000000000003', 'logo', 'QUEUED', {}, []],
        [
          '019aa8f4-0000-7000-8000-000000000004',
          'brand-kit',
          'RUNNING',
          {},
          [],
        ],
        [
          '019aa8f4-0000-7000-8000-000000000005',
          'marketing-copy',
          'CANCELLED',
          {},
          [],
        ],
        [
          '019aa8f4-0000-7000-8000-000000000006',
          'logo-edit',
          'QUEUED',
          { count: 4 },
          [],
        ],
      ];
      for (const [id, type, status, input, assetIds] of tasks) {
        await dataSource.query(
          `INSERT INTO "tasks" ("id", "projectId", "type", "status", "input", "assetIds", "createdAt", "updatedAt", "runAfter") VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)})`,
          [
            id,
            projectId,
            type,
            status,
            JSON.stringify(input),
            JSON.stringify(assetIds),
            at,
            at,
            at,
          ],
        );
      }
      dataSource.migrations.push(
        ...MIGRATIONS.filter(
          (migration) => migration.name === 'TaskProgress1764550000000',
        ).map((Migration) => new Migration()),
      );
      expect(await runPendingMigrations(dataSource)).toEqual([
        'TaskProgress1764550000000',
      ]);
      const rows = await dataSource.query<Array<{ progress: string }>>(
        'SELECT "progress" FROM "tasks" ORDER BY "id"',
      );
      expect(rows.map((row) => row.progress)).toEqual([
        '{"done":2,"total":2}',
        '{"done":0,"total":3}',
        '{"done":0,"total":1}',
        '{"done":0,"total":8}',
        '{"done":0,"total":1}',
        '{"done":0,"total":4}',
      ]);
    } finally {
      await dataSource.destroy();
      await database.drop();
    }
  });
});
