import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumnOptions,
  TableForeignKey,
  TableIndex,
} from 'typeorm';

/**
 * The first schema: projects and their sections, agents, tasks and assets.
 *
 * Written with TypeORM's Table API so that one migration serves SQLite and
 * PostgreSQL; only the timestamp column type differs between them.
 */
export class InitialSchema1763780000000 implements MigrationInterface {
  name = 'InitialSchema1763780000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const isPostgres =
      queryRunner.connection.driver.options.type === 'postgres';
    // Both keep milliseconds; PostgreSQL stores an absolute instant (UTC).
    const timestamp: TableColumnOptions['type'] = isPostgres
      ? 'timestamptz'
      : 'datetime';
    const id = (name: string, nullable = false): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: '36',
      isNullable: nullable,
    });
    const primaryId: TableColumnOptions = { ...id('id'), isPrimary: true };
    const text = (name: string, nullable = false): TableColumnOptions => ({
      name,
      type: 'text',
      isNullable: nullable,
    });
    const word = (name: string): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: '32',
    });
    const at = (name: string): TableColumnOptions => ({
      name,
      type: timestamp,
      ...(isPostgres ? { precision: 3 } : {}),
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

    await queryRunner.createTable(
      new Table({
        name: 'projects',
        columns: [
          primaryId,
          text('name'),
          text('description', true),
          text('userId'),
          at('createdAt'),
          at('updatedAt'),
        ],
        indices: [
          new TableIndex({
            name: 'idx_projects_user_updated',
            columnNames: ['userId', 'updatedAt', 'id'],
          }),
          new TableIndex({
            name: 'idx_projects_updated',
            columnNames: ['updatedAt', 'id'],
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'sections',
        columns: [
          primaryId,
          id('projectId'),
          word('type'),
          word('status'),
          { name: 'position', type: 'integer' },
          at('createdAt'),
          at('updatedAt'),
        ],
        foreignKeys: [belongsTo('projectId', 'projects', 'CASCADE')],
        indices: [
          new TableIndex({
            name: 'idx_sections_project_position',
            columnNames: ['projectId', 'position'],
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'agents',
        columns: [
          primaryId,
          id('projectId'),
          text('name'),
          word('type'),
          word('provider'),
          word('status'),
          at('createdAt'),
          at('updatedAt'),
        ],
        foreignKeys: [belongsTo('projectId', 'projects', 'CASCADE')],
        indices: [
          new TableIndex({
            name: 'idx_agents_project',
            columnNames: ['projectId'],
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'tasks',
        columns: [
          primaryId,
          id('projectId'),
          id('sectionId', true),
          id('agentId', true),
          text('title'),
          text('description', true),
          word('status'),
          at('createdAt'),
          at('updatedAt'),
        ],
        foreignKeys: [
          belongsTo('projectId', 'projects', 'CASCADE'),
          belongsTo('sectionId', 'sections', 'SET NULL'),
          belongsTo('agentId', 'agents', 'SET NULL'),
        ],
        indices: [
          new TableIndex({
            name: 'idx_tasks_project_created',
            columnNames: ['projectId', 'createdAt'],
          }),
          new TableIndex({
            name: 'idx_tasks_section',
            columnNames: ['sectionId'],
          }),
          new TableIndex({ name: 'idx_tasks_agent', columnNames: ['agentId'] }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'assets',
        columns: [
          primaryId,
          id('projectId'),
          id('sectionId', true),
          word('type'),
          text('name', true),
          text('url'),
          at('createdAt'),
        ],
        foreignKeys: [
          belongsTo('projectId', 'projects', 'CASCADE'),
          belongsTo('sectionId', 'sections', 'SET NULL'),
        ],
        indices: [
          new TableIndex({
            name: 'idx_assets_project',
            columnNames: ['projectId'],
          }),
          new TableIndex({
            name: 'idx_assets_section',
            columnNames: ['sectionId'],
          }),
        ],
      }),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['assets', 'tasks', 'agents', 'sections', 'projects']) {
      await queryRunner.dropTable(table);
    }
  }
}
