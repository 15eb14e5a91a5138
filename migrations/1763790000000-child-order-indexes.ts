import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Agents, tasks and assets are read in (createdAt, id) order within their
 * project. Indexes on projectId alone made every read sort its rows; these
 * three serve the filter and the order together (a test checks the plans).
 */
export class ChildOrderIndexes1763790000000 implements MigrationInterface {
  name = 'ChildOrderIndexes1763790000000';

  private readonly replacements = [
    ['agents', 'idx_agents_project', 'idx_agents_project_created'],
    ['tasks', 'idx_tasks_project_created', 'idx_tasks_project_created_id'],
    ['assets', 'idx_assets_project', 'idx_assets_project_created'],
  ] as const;

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, oldName, newName] of this.replacements) {
      await queryRunner.createIndex(
        table,
        new TableIndex({
          name: newName,
          columnNames: ['projectId', 'createdAt', 'id'],
        }),
      );
      await queryRunner.dropIndex(table, oldName);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, oldName, newName] of this.replacements) {
      await queryRunner.createIndex(
        table,
        new TableIndex({
          name: oldName,
          columnNames:
            table === 'tasks' ? ['projectId', 'createdAt'] : ['projectId'],
        }),
      );
      await queryRunner.dropIndex(table, newName);
    }
  }
}
