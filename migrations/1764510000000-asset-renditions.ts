import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableForeignKey,
} from 'typeorm';

/**
 * Square PNG renditions of image assets (GET …/content?size=N), made once
 * and kept: a few kilobytes to a megabyte each, so one row holds the bytes
 * whole. They go with their asset, and so with its project.
 */
export class AssetRenditions1764510000000 implements MigrationInterface {
  name = 'AssetRenditions1764510000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const isPostgres = queryRunner.connection.options.type === 'postgres';
    await queryRunner.createTable(
      new Table({
        name: 'asset_renditions',
        columns: [
          { name: 'assetId', type: 'varchar', length: '36', isPrimary: true },
          // The edge in pixels (16 to 1024).
          { name: 'size', type: 'integer', isPrimary: true },
          // Lowercase hex: the rendition's ETag.
          { name: 'sha256', type: 'varchar', length: '64' },
          { name: 'bytes', type: isPostgres ? 'bytea' : 'blob' },
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['assetId'],
            referencedTableName: 'assets',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('asset_renditions');
  }
}
