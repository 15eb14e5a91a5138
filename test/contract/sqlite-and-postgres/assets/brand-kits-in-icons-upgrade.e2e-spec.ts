import request from 'supertest';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../../../config/data-source-options';
import { databaseConfig } from '../../../../src/database/database.config';
import { newId } from '../../../../src/common/ids';
import { MIGRATIONS } from '../../../../migrations';
import { BrandKitsInIcons1764580000000 } from '../../../../migrations/1764580000000-brand-kits-in-icons';
import type { AssetBody } from '../../../support/asset-client';
import { seedProjects } from '../../../support/seed-projects';
import { createTestApp } from '../../../support/test-app';
import {
  createTestDatabase,
  TEST_DATABASE,
} from '../../../support/test-database';

interface SectionBody {
  id: string;
  type: string;
  status: string;
  selectedAssetId: string | null;
}

/**
 * A database whose brand kits were kept in LOGO, upgraded by the next
 * start-up: the kit's files are in ICONS, a kit file chosen in LOGO is
 * ICONS's choice, both sections' statuses follow, and the project's
 * version (its ETag) moves on.
 */
describe('upgrading brand kits kept in LOGO', () => {
  it('moves every kit file to ICONS with its choice, and leaves the logos in LOGO', async () => {
    const database = await createTestDatabase();
    const mine = MIGRATIONS.indexOf(BrandKitsInIcons1764580000000);
    expect(mine).toBeGreaterThan(0);
    const options = buildDataSourceOptions(
      databaseConfig({ DATABASE_URL: database.url }).connection,
    );
    const before = new DataSource({
      ...options,
      migrations: MIGRATIONS.slice(0, mine),
    });
    await before.initialize();
    await before.runMigrations();
    const [projectId, otherId] = await seedProjects(database.url, 2, 1);
    const p = (n: number) => (TEST_DATABASE === 'postgres' ? `$${n}` : '?');
    const sectionId = async (project: string, type: string) =>
      (
        await before.query<Array<{ id: string }>>(
          `SELECT "id" FROM "sections" WHERE "projectId" = ${p(1)} AND "type" = ${p(2)}`,
          [project, type],
        )
      )[0].id;
    const logoSection = await sectionId(projectId, 'LOGO');
    const insert = async (
      project: string,
      section: string,
      kind: string,
      prompt: string,
    ) => {
      const id = newId();
      await before.query(
        `INSERT INTO "assets" ("id", "projectId", "sectionId", "kind", "contentType", "byteSize", "sha256", "prompt", "model", "createdAt", "fileName") VALUES (${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(p).join(', ')})`,
        [
          id,
          project,
          section,
          kind,
          'image/png',
          4,
          'a'.repeat(64),
          prompt,
          'm',
          '2026-11-01 10:00:00.000',
          kind === 'logo' ? 'logo.png' : prompt.split(' ')[0],
        ],
      );
      return id;
    };
    const logo = await insert(projectId, logoSection, 'logo', 'p');
    const favicon = await insert(
      projectId,
      logoSection,
      'brand-kit',
      `favicon.ico from logo ${logo}`,
    );
    const touch = await insert(
      projectId,
      logoSection,
      'brand-kit',
      `apple-touch-icon.png from logo ${logo}`,
    );
    // The other project's kit file is chosen in LOGO: the choice moves too.
    const otherLogoSection = await sectionId(otherId, 'LOGO');
    const otherKit = await insert(
      otherId,
      otherLogoSection,
      'brand-kit',
      `icon-192.png from logo ${newId()}`,
    );
    await before.query(
      `UPDATE "sections" SET "selectedAssetId" = ${p(1)}, "status" = 'DONE' WHERE "id" = ${p(2)}`,
      [otherKit, otherLogoSection],
    );
    await before.query(
      `UPDATE "sections" SET "status" = 'REVIEW' WHERE "id" = ${p(1)}`,
      [logoSection],
    );
    const versions = async (source: DataSource) =>
      (
        await source.query<Array<{ id: string; version: number | string }>>(
          `SELECT "id", "version" FROM "projects" WHERE "id" IN (${p(1)}, ${p(2)})`,
          [projectId, otherId],
        )
      ).reduce<Record<string, number>>(
        (all, row) => ({ ...all, [row.id]: Number(row.version) }),
        {},
      );
    const versionsBefore = await versions(before);
    await before.destroy();

    const t = await createTestApp({}, { database });
    try {
      const read = async (id: string) =>
        (
          (await request(t.server).get(`/api/projects/${id}`).expect(200))
            .body as {
            project: { sections: SectionBody[]; assets: AssetBody[] };
          }
        ).project;
      const section = (
        project: { sections: SectionBody[] },
        type: string,
      ): SectionBody => project.sections.find((one) => one.type === type)!;

      const project = await read(projectId);
      const where = new Map(
        project.assets.map((asset) => [asset.id, asset.sectionId]),
      );
      expect(where.get(logo)).toBe(logoSection);
      expect(where.get(favicon)).toBe(section(project, 'ICONS').id);
      expect(where.get(touch)).toBe(section(project, 'ICONS').id);
      expect(section(project, 'LOGO')).toMatchObject({
        status: 'REVIEW',
        selectedAssetId: null,
      });
      expect(section(project, 'ICONS')).toMatchObject({
        status: 'REVIEW',
        selectedAssetId: null,
      });

      const other = await read(otherId);
      expect(other.assets[0].sectionId).toBe(section(other, 'ICONS').id);
      expect(section(other, 'LOGO')).toMatchObject({
        status: 'PENDING',
        selectedAssetId: null,
      });
      expect(section(other, 'ICONS')).toMatchObject({
        status: 'DONE',
        selectedAssetId: otherKit,
      });

      const after = new DataSource(options);
      await after.initialize();
      try {
        const versionsAfter = await versions(after);
        expect(versionsAfter[projectId]).toBe(versionsBefore[projectId] + 1);
        expect(versionsAfter[otherId]).toBe(versionsBefore[otherId] + 1);
      } finally {
        await after.destroy();
      }
    } finally {
      await t.close();
    }
  });
});
