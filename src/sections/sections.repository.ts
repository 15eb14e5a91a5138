import { Injectable } from '@nestjs/common';
import { ChangeLog } from '../change-log/change-log.repository';
import { managerOf, type Transaction } from '../database/database.service';
import { isoTimestamp, sqlFor } from '../database/sql';
import { SECTION_FIELDS, type SectionDto } from './dto/section.dto';
import { RUNNING_TASK_STATUS } from './sections.constants';

/**
 * The SQL of choosing a section's result, hand-written, the same
 * statements on SQLite and PostgreSQL (sql/<dialect>/sections.repository.sql).
 * Every method runs in the transaction of the change; statuses are
 * WorkspaceStatuses' to write.
 */

/** A section's fields, as a SELECT or an UPDATE's RETURNING lists them. */
export const SECTION_COLUMNS = SECTION_FIELDS.map((name) => `"${name}"`).join(
  ', ',
);

const SECTION_SELECT = `SELECT ${SECTION_COLUMNS} FROM "sections" WHERE "id" = $1`;

/** A selected section with the driver's timestamps made the DTO's. */
export const sectionFromRow = (row: SectionDto): SectionDto => ({
  ...row,
  createdAt: isoTimestamp(row.createdAt),
  updatedAt: isoTimestamp(row.updatedAt),
});

/** What a change of selection must know of its section. */
export interface SelectionTarget {
  selectedAssetId: string | null;
  /** A task runs for it now (the section is IN_PROGRESS). */
  running: boolean;
}

@Injectable()
export class SectionsRepository {
  constructor(private readonly changeLog: ChangeLog) {}

  /** One section of the project, or null when it has none with this id. */
  async findTarget(
    transaction: Transaction,
    projectId: string,
    sectionId: string,
  ): Promise<SelectionTarget | null> {
    const [row] = await sqlFor(managerOf(transaction)).rows<{
      selectedAssetId: string | null;
      running: number | string | boolean;
    }>(
      `SELECT "selectedAssetId", CASE WHEN EXISTS (SELECT 1 FROM "tasks" WHERE "tasks"."sectionId" = "sections"."id" AND "tasks"."status" = '${RUNNING_TASK_STATUS}') THEN 1 ELSE 0 END AS "running" FROM "sections" WHERE "id" = $1 AND "projectId" = $2`,
      [sectionId, projectId],
    );
    if (!row) return null;
    return {
      selectedAssetId: row.selectedAssetId,
      running: Number(row.running) === 1,
    };
  }

  /**
   * The section an asset of the project belongs to (null: none), or
   * undefined when the project has no asset with this id.
   */
  async sectionOfAsset(
    transaction: Transaction,
    projectId: string,
    assetId: string,
  ): Promise<string | null | undefined> {
    const [row] = await sqlFor(managerOf(transaction)).rows<{
      sectionId: string | null;
    }>(
      'SELECT "sectionId" FROM "assets" WHERE "id" = $1 AND "projectId" = $2',
      [assetId, projectId],
    );
    return row ? row.sectionId : undefined;
  }

  /** Chooses `assetId` as the section's result (null: none). */
  async setSelection(
    transaction: Transaction,
    sectionId: string,
    assetId: string | null,
  ): Promise<void> {
    const sql = sqlFor(managerOf(transaction));
    const [row] = await sql.changedRows<SectionDto>(
      `UPDATE "sections" SET "selectedAssetId" = $2, "updatedAt" = $3 WHERE "id" = $1 RETURNING ${SECTION_COLUMNS}`,
      [sectionId, assetId, sql.timestamp(new Date())],
    );
    if (!row) return;
    const section = sectionFromRow(row);
    this.changeLog.record(transaction, section.projectId, {
      type: 'section.updated',
      key: sectionId,
      data: { sectionId, selectedAssetId: assetId, section },
    });
  }

  /** The section as the API shows it (it exists: the caller found it). */
  async find(transaction: Transaction, sectionId: string): Promise<SectionDto> {
    const [row] = await sqlFor(managerOf(transaction)).rows<SectionDto>(
      SECTION_SELECT,
      [sectionId],
    );
    return sectionFromRow(row);
  }
}
