import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumn,
  TableForeignKey,
} from 'typeorm';

/** The size of a part, as src/image-store/stored-images.repository.ts writes them. */
const PART_BYTES = 256 * 1024;

/**
 * Hosted logos' bytes move to parts of 256 KB, as kept assets' are: on
 * SQLite, reading any slice of a BLOB with substr loads the whole BLOB, so
 * serving a 20 MB logo in 80 slices read 80 times 20 MB (seconds of the
 * event loop's thread), and purging one deleted it in one statement. A
 * part is read, written and deleted alone. The images already stored are
 * split into parts here; stored_images keeps its bytes column, empty
 * (NULL) from now on.
 */
export class StoredImageParts1764320000000 implements MigrationInterface {
  name = 'StoredImageParts1764320000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const isPostgres = queryRunner.connection.options.type === 'postgres';
    const binary = isPostgres ? 'bytea' : 'blob';
    await queryRunner.changeColumn(
      'stored_images',
      'bytes',
      new TableColumn({ name: 'bytes', type: binary, isNullable: true }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'stored_image_parts',
        columns: [
          { name: 'imageId', type: 'varchar', length: '32', isPrimary: true },
          // Numbered from 0; every part but the last is PART_BYTES long.
          { name: 'part', type: 'integer', isPrimary: true },
          { name: 'bytes', type: binary },
        ],
        // The parts go with their image.
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['imageId'],
            referencedTableName: 'stored_images',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
    const slice = isPostgres
      ? `substring(i."bytes" from n."part" * ${PART_BYTES} + 1 for ${PART_BYTES})`
      : `substr(i."bytes", n."part" * ${PART_BYTES} + 1, ${PART_BYTES})`;
    await queryRunner.query(
      `WITH RECURSIVE n("part") AS (
         SELECT 0
         UNION ALL
         SELECT "part" + 1 FROM n
         WHERE ("part" + 1) * ${PART_BYTES} < (SELECT MAX("size") FROM "stored_images")
       )
       INSERT INTO "stored_image_parts" ("imageId", "part", "bytes")
       SELECT i."id", n."part", ${slice}
       FROM "stored_images" i JOIN n ON n."part" * ${PART_BYTES} < i."size"
       WHERE i."bytes" IS NOT NULL`,
    );
    await queryRunner.query('UPDATE "stored_images" SET "bytes" = NULL');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Hosted logos live LOGO_URL_TTL_S at most: the ones stored in parts
    // are dropped rather than joined back together.
    await queryRunner.dropTable('stored_image_parts');
    await queryRunner.query(
      'DELETE FROM "stored_images" WHERE "bytes" IS NULL',
    );
    await queryRunner.changeColumn(
      'stored_images',
      'bytes',
      new TableColumn({
        name: 'bytes',
        type:
          queryRunner.connection.options.type === 'postgres' ? 'bytea' : 'blob',
      }),
    );
  }
}
