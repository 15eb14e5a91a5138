import { MigrationInterface, QueryRunner } from 'typeorm';

/** The extension of each stored type, as assets/asset-file-names.ts gives it. */
const EXTENSION = `CASE "contentType" WHEN 'image/png' THEN 'png' WHEN 'image/jpeg' THEN 'jpg' WHEN 'image/webp' THEN 'webp' WHEN 'image/svg+xml' THEN 'svg' WHEN 'image/x-icon' THEN 'ico' WHEN 'application/json' THEN 'json' WHEN 'text/html' THEN 'html' ELSE 'bin' END`;

/**
 * Assets get a file name and, for raster images, their width and height.
 * File names of existing rows are set here, in one statement per kind:
 * a brand-kit file's is the first word of its prompt (`favicon.ico from
 * logo …`), any other's `<kind>-<last 8 hex digits of its id>.<ext>`, as
 * new rows get. Sizes need the bytes (in the database or a bucket): the
 * service reads them in the background after start-up, a few rows at a
 * time (assets/asset-sizes-backfill.ts); until then they are null.
 */
export class AssetFileNamesAndSizes1764570000000 implements MigrationInterface {
  name = 'AssetFileNamesAndSizes1764570000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const isPostgres =
      queryRunner.connection.driver.options.type === 'postgres';
    // Plain ADD COLUMN on both: TypeORM's addColumn rebuilds the table on
    // SQLite (docs/development.md, "Adding a field to a task").
    await queryRunner.query(
      `ALTER TABLE "assets" ADD COLUMN "fileName" text NOT NULL DEFAULT ${isPostgres ? "''" : "('')"}`,
    );
    await queryRunner.query(`ALTER TABLE "assets" ADD COLUMN "width" integer`);
    await queryRunner.query(`ALTER TABLE "assets" ADD COLUMN "height" integer`);
    const firstWord = isPostgres
      ? `split_part("prompt", ' ', 1)`
      : `substr("prompt", 1, instr("prompt" || ' ', ' ') - 1)`;
    await queryRunner.query(
      `UPDATE "assets" SET "fileName" = ${firstWord} WHERE "kind" = 'brand-kit'`,
    );
    await queryRunner.query(
      `UPDATE "assets" SET "fileName" = "kind" || '-' || substr("id", 29, 8) || '.' || ${EXTENSION} WHERE "fileName" = ''`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "height"`);
    await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "width"`);
    await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "fileName"`);
  }
}
