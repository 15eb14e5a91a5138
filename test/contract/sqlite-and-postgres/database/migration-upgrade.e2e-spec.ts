import request from 'supertest';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../../../config/data-source-options';
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
