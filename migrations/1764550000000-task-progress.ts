import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A task's progress, `{"done":n,"total":m}` as JSON text (as `input`,
 * `assetIds` and `error` are): results kept of those it will keep. Tasks
 * made before it get theirs from what they hold: a succeeded task kept
 * all of its results (its `assetIds`), any other kept none (results were
 * kept only on success); the total is a logo or logo-edit task's
 * `count`, the brand kit's 8 files, 1 for the other types.
 */
export class TaskProgress1764550000000 implements MigrationInterface {
  name = 'TaskProgress1764550000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const isPostgres =
      queryRunner.connection.driver.options.type === 'postgres';
    // A plain ADD COLUMN on both: TypeORM's addColumn rebuilds the table
    // on SQLite (docs/development.md, "Adding a field to a task").
    await queryRunner.query(
      `ALTER TABLE "tasks" ADD COLUMN "progress" text NOT NULL DEFAULT '{"done":0,"total":1}'`,
    );
    const kept = isPostgres
      ? `json_array_length("assetIds"::json)`
      : `json_array_length("assetIds")`;
    const count = isPostgres
      ? `("input"::json->>'count')::integer`
      : `CAST(json_extract("input", '$.count') AS integer)`;
    const total = `CASE WHEN "type" = 'brand-kit' THEN 8 WHEN "type" IN ('logo', 'logo-edit') THEN COALESCE(${count}, 1) ELSE 1 END`;
    // The same text the tasks repository writes (JSON.stringify), which
    // its compare-and-set on a result's keep compares with.
    await queryRunner.query(
      `UPDATE "tasks" SET "progress" = '{"done":' || (CASE WHEN "status" = 'SUCCEEDED' THEN ${kept} ELSE 0 END) || ',"total":' || (CASE WHEN "status" = 'SUCCEEDED' THEN ${kept} ELSE ${total} END) || '}'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "progress"`);
  }
}
