import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Renditions are made in the sizes of a fixed ladder only; the ones kept
 * at any other size (up to 1,009 per asset) are never read again: deleted.
 * The ladder is written out here, as it was when this ran.
 */
const LADDER = [16, 32, 48, 64, 128, 180, 192, 256, 512, 1024];

export class RenditionLadder1764535000000 implements MigrationInterface {
  name = 'RenditionLadder1764535000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM "asset_renditions" WHERE "size" NOT IN (${LADDER.join(', ')})`,
    );
  }

  /** Deleted renditions are made again on demand: nothing to restore. */
  public async down(): Promise<void> {}
}
