import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumn,
  TableColumnOptions,
  TableForeignKey,
  TableIndex,
} from 'typeorm';

/**
 * Tasks become work the project's agents run: a type and its input, a
 * status that moves (QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED), the
 * assets it made, its error, its attempts and when it ran. No route ever
 * wrote the first schema's tasks (title, description), so the table is made
 * anew. A section remembers the result chosen from its assets.
 */
export class RunningTasks1764400000000 implements MigrationInterface {
  name = 'RunningTasks1764400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const isPostgres =
      queryRunner.connection.driver.options.type === 'postgres';
    const id = (name: string, nullable = false): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: '36',
      isNullable: nullable,
    });
    const at = (name: string, nullable = false): TableColumnOptions => ({
      name,
      type: isPostgres ? 'timestamptz' : 'datetime',
      ...(isPostgres ? { precision: 3 } : {}),
      isNullable: nullable,
    });
    const belongsTo = (
      column: string,
      table: string,
      onDelete: 'CASCADE' | 'SET NULL',
    ) =>
      new TableForeignKey({
        columnNames: [column],
        referencedTableName: table,
        referencedColumnNames: ['id'],
        onDelete,
      });
    await queryRunner.dropTable('tasks');
    await queryRunner.createTable(
      new Table({
        name: 'tasks',
        columns: [
          { ...id('id'), isPrimary: true },
          id('projectId'),
          id('sectionId', true),
          id('agentId', true),
          // logo, marketing-copy or landing-page.
          { name: 'type', type: 'varchar', length: '32' },
          { name: 'status', type: 'varchar', length: '16' },
          // JSON text the service wrote: the validated input, the ids of
          // the assets made, the error ({code, message}) or NULL.
          { name: 'input', type: 'text' },
          { name: 'assetIds', type: 'text' },
          { name: 'error', type: 'text', isNullable: true },
          { name: 'attempts', type: 'integer', default: 0 },
          at('createdAt'),
          at('startedAt', true),
          at('finishedAt', true),
          at('updatedAt'),
          // The embedded engine's schedule: a queued task runs from
          // runAfter; a running one is taken again once leaseUntil passes.
          at('runAfter'),
          at('leaseUntil', true),
        ],
        foreignKeys: [
          belongsTo('projectId', 'projects', 'CASCADE'),
          belongsTo('sectionId', 'sections', 'SET NULL'),
          belongsTo('agentId', 'agents', 'SET NULL'),
        ],
        indices: [
          new TableIndex({
            name: 'idx_tasks_project_created_id',
            columnNames: ['projectId', 'createdAt', 'id'],
          }),
          new TableIndex({
            name: 'idx_tasks_section',
            columnNames: ['sectionId'],
          }),
          new TableIndex({ name: 'idx_tasks_agent', columnNames: ['agentId'] }),
          new TableIndex({
            name: 'idx_tasks_status_run_after',
            columnNames: ['status', 'runAfter'],
          }),
        ],
      }),
    );
    await queryRunner.addColumn(
      'sections',
      new TableColumn(id('selectedAssetId', true)),
    );
    await queryRunner.createForeignKey(
      'sections',
      belongsTo('selectedAssetId', 'assets', 'SET NULL'),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const isPostgres =
      queryRunner.connection.driver.options.type === 'postgres';
    const sections = await queryRunner.getTable('sections');
    const selection = sections?.foreignKeys.find((key) =>
      key.columnNames.includes('selectedAssetId'),
    );
    if (selection) await queryRunner.dropForeignKey('sections', selection);
    await queryRunner.dropColumn('sections', 'selectedAssetId');
    await queryRunner.dropTable('tasks');
    const at = (name: string): TableColumnOptions => ({
      name,
      type: isPostgres ? 'timestamptz' : 'datetime',
      ...(isPostgres ? { precision: 3 } : {}),
    });
    await queryRunner.createTable(
      new Table({
        name: 'tasks',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'projectId', type: 'varchar', length: '36' },
          {
            name: 'sectionId',
            type: 'varchar',
            length: '36',
            isNullable: true,
          },
          { name: 'agentId', type: 'varchar', length: '36', isNullable: true },
          { name: 'title', type: 'text' },
          { name: 'description', type: 'text', isNullable: true },
          { name: 'status', type: 'varchar', length: '32' },
          at('createdAt'),
          at('updatedAt'),
        ],
        indices: [
          new TableIndex({
            name: 'idx_tasks_project_created_id',
            columnNames: ['projectId', 'createdAt', 'id'],
          }),
        ],
      }),
    );
  }
}
