import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * A version per project, for ETag and If-Match, and the answers stored for
 * Idempotency-Key retries.
 *
 * The column is added with plain ALTER TABLE: both databases add a column
 * with a constant default in place (TypeORM's addColumn would rebuild the
 * SQLite table, and dropping the old one would cascade to every child row).
 * Existing projects start at version 1, as new ones do.
 */
export class VersionsAndIdempotencyKeys1764000000000 implements MigrationInterface {
  name = 'VersionsAndIdempotencyKeys1764000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "projects" ADD COLUMN "version" integer NOT NULL DEFAULT 1',
    );
    await queryRunner.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          // SHA-256 of route, caller and key: fixed length whatever the key.
          { name: 'id', type: 'varchar', length: '64', isPrimary: true },
          // SHA-256 of the request body the key was first used with.
          { name: 'fingerprint', type: 'varchar', length: '64' },
          // Null while the first request is being processed.
          { name: 'status', type: 'integer', isNullable: true },
          { name: 'body', type: 'text', isNullable: true },
          // The stored answer's headers, as a JSON object.
          { name: 'headers', type: 'text', isNullable: true },
          // Epoch milliseconds: compared in SQL the same way on both databases.
          { name: 'lockedUntil', type: 'bigint', isNullable: true },
          { name: 'expiresAt', type: 'bigint' },
        ],
        indices: [
          new TableIndex({
            name: 'idx_idempotency_keys_expires',
            columnNames: ['expiresAt'],
          }),
        ],
      }),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_keys');
    await queryRunner.query('ALTER TABLE "projects" DROP COLUMN "version"');
  }
}
