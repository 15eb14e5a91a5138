import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * A task's place in its owner's line: how many of the owner's tasks were
 * unfinished when it was queued. The embedded engine takes lower places
 * first (round robin by user), as pg-boss does with the same number as a
 * job's priority. Tasks queued before this column are all in place 0.
 * Indexed in the order the embedded engine takes them, so its take reads
 * one entry instead of sorting every queued task.
 */
export class TaskQueuePlace1764537000000 implements MigrationInterface {
  name = 'TaskQueuePlace1764537000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const isPostgres =
      queryRunner.connection.driver.options.type === 'postgres';
    // A plain ADD COLUMN on both: TypeORM's addColumn rebuilds the table
    // on SQLite.
    await queryRunner.query(
      `ALTER TABLE "tasks" ADD COLUMN "queuePlace" integer NOT NULL DEFAULT ${isPostgres ? '0' : '(0)'}`,
    );
    await queryRunner.createIndex(
      'tasks',
      new TableIndex({
        name: 'idx_tasks_status_place_run_after_id',
        columnNames: ['status', 'queuePlace', 'runAfter', 'id'],
      }),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('tasks', 'idx_tasks_status_place_run_after_id');
    await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "queuePlace"`);
  }
}
