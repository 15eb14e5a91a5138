import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * The embedded engine looks for a RUNNING task whose lease has lapsed,
 * oldest lapse first, every few seconds: an index in that order, so the
 * scan reads one entry instead of sorting every running task.
 */
export class TaskLeaseIndex1764520000000 implements MigrationInterface {
  name = 'TaskLeaseIndex1764520000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'tasks',
      new TableIndex({
        name: 'idx_tasks_status_lease_id',
        columnNames: ['status', 'leaseUntil', 'id'],
      }),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('tasks', 'idx_tasks_status_lease_id');
  }
}
