import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';

/**
 * GET /api/projects pages by createdAt and by name too (`sort`), with and
 * without the userId filter: an index for each, so a page reads its rows
 * in order and stops, instead of sorting the whole table. The name is
 * sorted folded (ASCII letters lower-cased) and byte by byte on both
 * databases (src/projects/project-search.ts): its indexes are on that
 * expression, written exactly as the list's ORDER BY writes it, or the
 * planner would not use them. Plain SQL: TypeORM cannot describe an
 * expression index (the entity declares them `synchronize: false`).
 */
export class ProjectListOrders1764560000000 implements MigrationInterface {
  name = 'ProjectListOrders1764560000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'projects',
      new TableIndex({
        name: 'idx_projects_created',
        columnNames: ['createdAt', 'id'],
      }),
    );
    await queryRunner.createIndex(
      'projects',
      new TableIndex({
        name: 'idx_projects_user_created',
        columnNames: ['userId', 'createdAt', 'id'],
      }),
    );
    // The first 100 characters only: PATCH stores names of any length, and
    // a PostgreSQL index entry holds at most about 2.7 KB.
    const nameKey =
      queryRunner.connection.options.type === 'postgres'
        ? `(substr(translate("name", '${UPPER}', '${LOWER}'), 1, 100) COLLATE "C")`
        : '(substr(lower("name"), 1, 100))';
    await queryRunner.query(
      `CREATE INDEX "idx_projects_name" ON "projects" (${nameKey}, "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_projects_user_name" ON "projects" ("userId", ${nameKey}, "id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_projects_user_name"');
    await queryRunner.query('DROP INDEX "idx_projects_name"');
    await queryRunner.dropIndex('projects', 'idx_projects_user_created');
    await queryRunner.dropIndex('projects', 'idx_projects_created');
  }
}
