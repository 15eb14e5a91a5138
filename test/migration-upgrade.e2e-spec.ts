import request from 'supertest';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../config/data-source-options';
import { loadConfiguration } from '../config/environment';
import { MIGRATIONS } from '../migrations';
import { seedProjects } from './support/seed-projects';
import { createTestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';

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
        loadConfiguration({ DATABASE_URL: database.url }).database,
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
