import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumnOptions,
  TableForeignKey,
  TableIndex,
} from 'typeorm';

/**
 * Assets become kept logos: each names its bytes' type, size and SHA-256,
 * and the prompt and model that drew it. The bytes themselves live in
 * asset_contents (ASSET_STORE=database, in parts, deleted with it) or in an S3-compatible bucket. No route ever wrote the first
 * schema's assets (type, name, url), and a row without bytes would break
 * the rule that every asset's bytes load, so the table is made anew.
 */
export class LogoAssets1764200000000 implements MigrationInterface {
  name = 'LogoAssets1764200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const isPostgres =
      queryRunner.connection.driver.options.type === 'postgres';
    const id = (name: string, nullable = false): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: '36',
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
    await queryRunner.dropTable('assets');
    await queryRunner.createTable(
      new Table({
        name: 'assets',
        columns: [
          { ...id('id'), isPrimary: true },
          id('projectId'),
          id('sectionId', true),
          // "logo": what made it.
          { name: 'kind', type: 'varchar', length: '32' },
          // image/png, image/jpeg or image/webp, from the bytes.
          { name: 'contentType', type: 'varchar', length: '32' },
          { name: 'byteSize', type: 'integer' },
          // Lowercase hex: the bytes' ETag and integrity check.
          { name: 'sha256', type: 'varchar', length: '64' },
          { name: 'prompt', type: 'text' },
          { name: 'model', type: 'text' },
          {
            name: 'createdAt',
            type: isPostgres ? 'timestamptz' : 'datetime',
            ...(isPostgres ? { precision: 3 } : {}),
          },
        ],
        foreignKeys: [
          belongsTo('projectId', 'projects', 'CASCADE'),
          belongsTo('sectionId', 'sections', 'SET NULL'),
        ],
        indices: [
          new TableIndex({
            name: 'idx_assets_project_created',
            columnNames: ['projectId', 'createdAt', 'id'],
          }),
          new TableIndex({
            name: 'idx_assets_section',
            columnNames: ['sectionId'],
          }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'asset_contents',
        columns: [
          { ...id('assetId'), isPrimary: true },
          // The bytes in parts of 256 KB, numbered from 0: reading one part
          // never loads the others (SQLite's substr on a BLOB would load it
          // all, for every slice served).
          { name: 'part', type: 'integer', isPrimary: true },
          { name: 'bytes', type: isPostgres ? 'bytea' : 'blob' },
        ],
        // The bytes go with their asset, and so with its project.
        foreignKeys: [belongsTo('assetId', 'assets', 'CASCADE')],
      }),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('asset_contents');
    await queryRunner.dropTable('assets');
    await queryRunner.createTable(
      new Table({
        name: 'assets',
        columns: [
          {
            name: 'id',
            type: 'varchar',
            length: '36',
            isPrimary: true,
          },
          { name: 'projectId', type: 'varchar', length: '36' },
          {
            name: 'sectionId',
            type: 'varchar',
            length: '36',
            isNullable: true,
          },
          { name: 'type', type: 'varchar', length: '32' },
          { name: 'name', type: 'text', isNullable: true },
          { name: 'url', type: 'text' },
          {
            name: 'createdAt',
            type:
              queryRunner.connection.driver.options.type === 'postgres'
                ? 'timestamptz'
                : 'datetime',
          },
        ],
      }),
    );
  }
}
