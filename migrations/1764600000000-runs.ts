import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Runs: one request that takes a project through its sections. A run's
 * row holds what was asked (the steps' inputs, whether the run chooses
 * results itself) and where it is; each of its steps is a row of
 * run_steps, pointing at the task that does its work once queued. Inputs,
 * the quote, the error and a step's detail are JSON text, as a task's
 * input is. A run goes with its project (ON DELETE CASCADE), its steps
 * with the run.
 */
export class Runs1764600000000 implements MigrationInterface {
  name = 'Runs1764600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const isPostgres =
      queryRunner.connection.driver.options.type === 'postgres';
    const at = isPostgres ? 'timestamptz(3)' : 'datetime';
    await queryRunner.query(
      `CREATE TABLE "runs" ("id" varchar(36) PRIMARY KEY NOT NULL, "projectId" varchar(36) NOT NULL REFERENCES "projects" ("id") ON DELETE CASCADE, "status" varchar(16) NOT NULL, "autoChoose" integer NOT NULL, "input" text NOT NULL, "quote" text NOT NULL, "siteUrl" text, "error" text, "createdAt" ${at} NOT NULL, "updatedAt" ${at} NOT NULL)`,
    );
    // A project's page of runs, newest first.
    await queryRunner.query(
      'CREATE INDEX "idx_runs_project_created" ON "runs" ("projectId", "createdAt", "id")',
    );
    // The sweep's and the per-user count's read: the open runs.
    await queryRunner.query(
      'CREATE INDEX "idx_runs_status" ON "runs" ("status")',
    );
    await queryRunner.query(
      `CREATE TABLE "run_steps" ("runId" varchar(36) NOT NULL REFERENCES "runs" ("id") ON DELETE CASCADE, "position" integer NOT NULL, "type" varchar(32) NOT NULL, "attempt" integer NOT NULL, "taskId" varchar(36), "status" varchar(16) NOT NULL, "detail" text NOT NULL, "updatedAt" ${at} NOT NULL, PRIMARY KEY ("runId", "position"))`,
    );
    // A settled task's run, found from the task.
    await queryRunner.query(
      'CREATE INDEX "idx_run_steps_task" ON "run_steps" ("taskId")',
    );
    // The sweep's read: steps whose task is still unfinished.
    await queryRunner.query(
      'CREATE INDEX "idx_run_steps_status" ON "run_steps" ("status")',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "run_steps"');
    await queryRunner.query('DROP TABLE "runs"');
  }
}
