import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Image bytes kept by the service itself (logos that the image API answered
 * as base64), served from every replica. The bytes are a BLOB on SQLite
 * and a bytea on PostgreSQL; everything else is the same on both.
 */
export class StoredImages1764100000000 implements MigrationInterface {
  name = 'StoredImages1764100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const binary =
      queryRunner.connection.options.type === 'postgres' ? 'bytea' : 'blob';
    await queryRunner.createTable(
      new Table({
        name: 'stored_images',
        columns: [
          // 128 random bits as 32 hex digits: the URL is the capability.
          { name: 'id', type: 'varchar', length: '32', isPrimary: true },
          // image/png, image/jpeg or image/webp.
          { name: 'mediaType', type: 'varchar', length: '32' },
          { name: 'size', type: 'integer' },
          { name: 'bytes', type: binary },
          // Epoch milliseconds, as the idempotency records keep time.
          { name: 'expiresAt', type: 'bigint' },
        ],
        indices: [
          new TableIndex({
            name: 'idx_stored_images_expires',
            columnNames: ['expiresAt'],
          }),
        ],
      }),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('stored_images');
  }
}
