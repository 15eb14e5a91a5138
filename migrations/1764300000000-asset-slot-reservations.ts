import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableForeignKey,
  TableIndex,
} from 'typeorm';

/**
 * A row per logo being kept right now: the free slot of its project that
 * the request took before paying the image model. Assets and reservations
 * together never exceed ASSET_MAX_PER_PROJECT, however many keeps run at
 * once on however many replicas.
 */
export class AssetSlotReservations1764300000000 implements MigrationInterface {
  name = 'AssetSlotReservations1764300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'asset_slot_reservations',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'projectId', type: 'varchar', length: '36' },
          // Epoch milliseconds, as the idempotency records keep time: a
          // process that died mid-call leaves a slot that frees itself.
          { name: 'expiresAt', type: 'bigint' },
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['projectId'],
            referencedTableName: 'projects',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
        indices: [
          new TableIndex({
            name: 'idx_asset_slot_reservations_project',
            columnNames: ['projectId', 'expiresAt'],
          }),
        ],
      }),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('asset_slot_reservations');
  }
}
