import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The usage ledger: one row per paid model call, written before the call
 * (state `reserved`, its estimated cost) and settled after it (`settled`,
 * the cost of what was used) or given back (`released`, when the call
 * failed). Costs are whole micro-dollars (1e-6 USD), so sums are exact on
 * both databases. `day` (YYYY-MM-DD, UTC) and `month` (YYYY-MM) are kept
 * as text so a budget's sum is one index range on either database.
 */
export class UsageLedger1764540000000 implements MigrationInterface {
  name = 'UsageLedger1764540000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const isPostgres =
      queryRunner.connection.driver.options.type === 'postgres';
    const id = isPostgres
      ? '"id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY'
      : '"id" integer PRIMARY KEY AUTOINCREMENT';
    const at = isPostgres ? 'timestamptz(3)' : 'datetime';
    await queryRunner.query(
      `CREATE TABLE "usage_ledger" (${id}, "userKey" varchar(300) NOT NULL, "projectId" varchar(36), "taskId" varchar(36), "kind" varchar(16) NOT NULL, "model" varchar(200) NOT NULL, "state" varchar(16) NOT NULL, "images" integer NOT NULL, "inputTokens" integer NOT NULL, "outputTokens" integer NOT NULL, "costMicros" bigint NOT NULL, "day" varchar(10) NOT NULL, "month" varchar(7) NOT NULL, "at" ${at} NOT NULL)`,
    );
    // A user's spend today, and a project's this month: each one range.
    await queryRunner.query(
      'CREATE INDEX "idx_usage_ledger_user_day" ON "usage_ledger" ("userKey", "day")',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_usage_ledger_project_month" ON "usage_ledger" ("projectId", "month")',
    );
    // GET /api/usage: a user's month, by project.
    await queryRunner.query(
      'CREATE INDEX "idx_usage_ledger_user_month" ON "usage_ledger" ("userKey", "month", "projectId")',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "usage_ledger"');
  }
}
