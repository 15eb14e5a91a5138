import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * A hosted logo remembers what made it (the prompt and the model), so that
 * keeping the logo a user previewed stores the same bytes with the same
 * origin as a logo generated for the project, without calling the image
 * model again. Images hosted before this have neither (NULL).
 */
export class HostedLogoOrigin1764500000000 implements MigrationInterface {
  name = 'HostedLogoOrigin1764500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('stored_images', [
      new TableColumn({ name: 'prompt', type: 'text', isNullable: true }),
      new TableColumn({ name: 'model', type: 'text', isNullable: true }),
    ]);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('stored_images', 'model');
    await queryRunner.dropColumn('stored_images', 'prompt');
  }
}
