import request from 'supertest';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../../../config/data-source-options';
import { databaseConfig } from '../../../../src/database/database.config';
import { AssetSizesBackfill } from '../../../../src/assets/asset-sizes';
import { newId } from '../../../../src/common/ids';
import { MIGRATIONS } from '../../../../migrations';
import { AssetFileNamesAndSizes1764570000000 } from '../../../../migrations/1764570000000-asset-file-names-and-sizes';
import type { AssetBody } from '../../../support/asset-client';
import { seedProjects } from '../../../support/seed-projects';
import { createTestApp } from '../../../support/test-app';
import {
  createTestDatabase,
  TEST_DATABASE,
} from '../../../support/test-database';

/**
 * A database with assets kept before file names and sizes, upgraded by
 * the next start-up: the migration names every row (a brand-kit file by
 * its name in the kit, any other `<kind>-<end of id>.<ext>`), and the
 * background pass reads the images' sizes from their stored bytes.
 */
describe('upgrading assets kept before file names and sizes', () => {
  it('names every existing asset, and sizes its images from their bytes', async () => {
    const database = await createTestDatabase();
    const mine = MIGRATIONS.indexOf(AssetFileNamesAndSizes1764570000000);
    expect(mine).toBeGreaterThan(0);
    const before = new DataSource({
      ...buildDataSourceOptions(
        databaseConfig({ DATABASE_URL: database.url }).connection,
      ),
      migrations: MIGRATIONS.slice(0, mine),
    });
    await before.initialize();
    await before.runMigrations();
    await before.destroy();
    const [projectId] = await seedProjects(database.url, 1, 1);

    const png = await sharp({
      create: { width: 40, height: 20, channels: 4, background: '#0044ff' },
    })
      .png()
      .toBuffer();
    const rows = [
      { id: newId(), kind: 'logo', contentType: 'image/png', prompt: 'p' },
      {
        id: newId(),
        kind: 'brand-kit',
        contentType: 'image/x-icon',
        prompt: 'favicon.ico from logo 019aa8f3-0b4e-7a21-8c3d-5e6f7a8b9c0d',
      },
      {
        id: newId(),
        kind: 'landing-page',
        contentType: 'text/html',
        prompt: 'p',
      },
    ];
    const old = new DataSource({
      ...buildDataSourceOptions(
        databaseConfig({ DATABASE_URL: database.url }).connection,
      ),
    });
    await old.initialize();
    const p = (n: number) => (TEST_DATABASE === 'postgres' ? `$${n}` : '?');
    for (const row of rows) {
      await old.query(
        `INSERT INTO "assets" ("id", "projectId", "sectionId", "kind", "contentType", "byteSize", "sha256", "prompt", "model", "createdAt") VALUES (${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(p).join(', ')})`,
        [
          row.id,
          projectId,
          null,
          row.kind,
          row.contentType,
          png.length,
          'a'.repeat(64),
          row.prompt,
          'm',
          '2026-11-01 10:00:00.000',
        ],
      );
      await old.query(
        `INSERT INTO "asset_contents" ("assetId", "part", "bytes") VALUES (${p(1)}, 0, ${p(2)})`,
        [row.id, row.kind === 'logo' ? png : Buffer.from('not an image')],
      );
    }
    await old.destroy();

    const t = await createTestApp({}, { database });
    try {
      // The pass started with the app; a second run finds what is left.
      await t.app.get(AssetSizesBackfill).run();
      const detail = await request(t.server)
        .get(`/api/projects/${projectId}`)
        .expect(200);
      const assets = (detail.body as { project: { assets: AssetBody[] } })
        .project.assets;
      const byId = new Map(assets.map((asset) => [asset.id, asset]));
      expect(byId.get(rows[0].id)).toMatchObject({
        fileName: `logo-${rows[0].id.slice(-8)}.png`,
        width: 40,
        height: 20,
      });
      expect(byId.get(rows[0].id)!.thumbnailUrl).toMatch(/\?size=128$/);
      expect(byId.get(rows[1].id)).toMatchObject({
        fileName: 'favicon.ico',
        width: null,
        thumbnailUrl: null,
      });
      expect(byId.get(rows[2].id)).toMatchObject({
        fileName: `landing-page-${rows[2].id.slice(-8)}.html`,
        width: null,
      });
    } finally {
      await t.close();
    }
  });
});
