import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change log: one row per change a project route would answer
 * differently after, written in the transaction of the change itself, read
 * by the live-change streams. The id is the stream's event id: it only
 * grows, and is never reused after old rows are purged (AUTOINCREMENT on
 * SQLite; an identity on PostgreSQL). change_events_purged remembers the
 * highest id purged, so a client resuming from an older id is told to
 * refetch rather than silently missing events.
 */
export class ChangeEvents1764530000000 implements MigrationInterface {
  name = 'ChangeEvents1764530000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const isPostgres =
      queryRunner.connection.driver.options.type === 'postgres';
    const id = isPostgres
      ? '"id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY'
      : '"id" integer PRIMARY KEY AUTOINCREMENT';
    const at = isPostgres ? 'timestamptz(3)' : 'datetime';
    await queryRunner.query(
      `CREATE TABLE "change_events" (${id}, "type" varchar(32) NOT NULL, "projectId" varchar(36) NOT NULL, "userId" varchar(255) NOT NULL, "at" ${at} NOT NULL, "data" text NOT NULL)`,
    );
    // A user's stream and a project's stream each seek their own rows.
    await queryRunner.query(
      'CREATE INDEX "idx_change_events_user_id" ON "change_events" ("userId", "id")',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_change_events_project_id" ON "change_events" ("projectId", "id")',
    );
    await queryRunner.query(
      `CREATE TABLE "change_events_purged" ("id" integer PRIMARY KEY, "throughId" bigint NOT NULL)`,
    );
    await queryRunner.query(
      'INSERT INTO "change_events_purged" ("id", "throughId") VALUES (1, 0)',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "change_events_purged"');
    await queryRunner.query('DROP TABLE "change_events"');
  }
}
