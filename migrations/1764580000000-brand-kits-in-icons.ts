import { MigrationInterface, QueryRunner } from 'typeorm';

/** The project's first section of `type` (every project has one of each). */
const sectionOf = (type: string, project: string) =>
  `(SELECT "s"."id" FROM "sections" "s" WHERE "s"."projectId" = ${project} AND "s"."type" = '${type}' ORDER BY "s"."position" LIMIT 1)`;

const KIT_FILES = `SELECT "id" FROM "assets" WHERE "kind" = 'brand-kit'`;
const LOGO_SECTIONS = `SELECT "id" FROM "sections" WHERE "type" = 'LOGO'`;

/** As sections/workspace-statuses.repository.ts computes it. */
const SECTION_STATUS = `CASE
  WHEN EXISTS (SELECT 1 FROM "tasks" WHERE "tasks"."sectionId" = "sections"."id" AND "tasks"."status" = 'RUNNING') THEN 'IN_PROGRESS'
  WHEN "sections"."selectedAssetId" IS NOT NULL THEN 'DONE'
  WHEN EXISTS (SELECT 1 FROM "assets" WHERE "assets"."sectionId" = "sections"."id") THEN 'REVIEW'
  ELSE 'PENDING' END`;

/**
 * A brand kit's files are the site's icons: they move from LOGO to the
 * project's ICONS section, where new kits are kept. A kit file chosen in
 * LOGO stays chosen, in ICONS (unless ICONS has a choice of its own), and
 * LOGO loses that choice. The statuses of both sections are computed
 * again, and each project whose kit moved gets a new version, so caches
 * of its workspace (ETags) see the change. Tasks of the brand-kit type
 * keep the section they ran for: they describe the past.
 */
export class BrandKitsInIcons1764580000000 implements MigrationInterface {
  name = 'BrandKitsInIcons1764580000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const isPostgres =
      queryRunner.connection.driver.options.type === 'postgres';
    const moved = `SELECT DISTINCT "projectId" FROM "assets" WHERE "kind" = 'brand-kit' AND "sectionId" IN (${LOGO_SECTIONS})`;
    await queryRunner.query(
      `UPDATE "projects" SET "version" = "version" + 1 WHERE "id" IN (${moved})`,
    );
    await queryRunner.query(
      `UPDATE "sections" SET "selectedAssetId" = (SELECT "l"."selectedAssetId" FROM "sections" "l" WHERE "l"."id" = ${sectionOf('LOGO', '"sections"."projectId"')}) WHERE "type" = 'ICONS' AND "selectedAssetId" IS NULL AND (SELECT "l"."selectedAssetId" FROM "sections" "l" WHERE "l"."id" = ${sectionOf('LOGO', '"sections"."projectId"')}) IN (${KIT_FILES})`,
    );
    await queryRunner.query(
      `UPDATE "sections" SET "selectedAssetId" = NULL WHERE "type" = 'LOGO' AND "selectedAssetId" IN (${KIT_FILES})`,
    );
    await queryRunner.query(
      `UPDATE "assets" SET "sectionId" = ${sectionOf('ICONS', '"assets"."projectId"')} WHERE "kind" = 'brand-kit' AND "sectionId" IN (${LOGO_SECTIONS})`,
    );
    // TypeORM writes SQLite datetimes as UTC text with milliseconds.
    const now = isPostgres
      ? new Date()
      : new Date().toISOString().replace('T', ' ').replace('Z', '');
    await queryRunner.query(
      `UPDATE "sections" SET "status" = ${SECTION_STATUS}, "updatedAt" = $1 WHERE "type" IN ('LOGO', 'ICONS') AND "status" <> ${SECTION_STATUS}`.replace(
        '$1',
        isPostgres ? '$1' : '?',
      ),
      [now],
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Kits go back to LOGO; choices stay where they are (ICONS keeps a kit
    // file chosen there: the older service shows it, just in ICONS).
    await queryRunner.query(
      `UPDATE "assets" SET "sectionId" = ${sectionOf('LOGO', '"assets"."projectId"')} WHERE "kind" = 'brand-kit' AND "sectionId" NOT IN (${LOGO_SECTIONS}) AND NOT EXISTS (SELECT 1 FROM "sections" "c" WHERE "c"."selectedAssetId" = "assets"."id")`,
    );
  }
}
