import { randomBytes } from 'node:crypto';
import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * One random id per database: this deployment's identity, written into the
 * metadata of every object the S3 store uploads, so that its sweep deletes
 * only objects this deployment wrote. Generated here, once, so every
 * replica on this database reads the same id.
 */
export class DeploymentIdentity1764310000000 implements MigrationInterface {
  name = 'DeploymentIdentity1764310000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'deployment_identity',
        columns: [
          { name: 'id', type: 'varchar', length: '32', isPrimary: true },
          // Epoch milliseconds: the oldest row is the identity.
          { name: 'createdAt', type: 'bigint' },
        ],
      }),
    );
    await queryRunner.manager
      .createQueryBuilder()
      .insert()
      .into('deployment_identity')
      .values({ id: randomBytes(16).toString('hex'), createdAt: Date.now() })
      .execute();
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('deployment_identity');
  }
}
