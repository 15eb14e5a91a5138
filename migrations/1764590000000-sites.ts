import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Published sites. `sites`: a project's current version (NULL once taken
 * down). `site_versions`: each publish, numbered 1, 2, … per project,
 * immutable, with its files' list (JSON) and the task that made it (a
 * retried task finds its version again). `site_files`: the files' bytes
 * when SITES_STORE=database (a landing page and a few icons: one row
 * each). All go with their project (ON DELETE CASCADE).
 */
export class Sites1764590000000 implements MigrationInterface {
  name = 'Sites1764590000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const isPostgres = queryRunner.connection.options.type === 'postgres';
    const bytes = isPostgres ? 'bytea' : 'blob';
    const project =
      '"projectId" varchar(36) NOT NULL REFERENCES "projects" ("id") ON DELETE CASCADE';
    await queryRunner.query(
      `CREATE TABLE "sites" (${project} PRIMARY KEY, "currentVersion" integer, "updatedAt" varchar(30) NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE TABLE "site_versions" (${project}, "version" integer NOT NULL, "taskId" varchar(36) NOT NULL, "reportId" varchar(36), "files" text NOT NULL, "publishedAt" varchar(30) NOT NULL, PRIMARY KEY ("projectId", "version"))`,
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "idx_site_versions_task" ON "site_versions" ("taskId")',
    );
    await queryRunner.query(
      `CREATE TABLE "site_files" (${project}, "version" integer NOT NULL, "path" varchar(64) NOT NULL, "contentType" varchar(64) NOT NULL, "sha256" varchar(64) NOT NULL, "bytes" ${bytes} NOT NULL, PRIMARY KEY ("projectId", "version", "path"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "site_files"');
    await queryRunner.query('DROP TABLE "site_versions"');
    await queryRunner.query('DROP TABLE "sites"');
  }
}
