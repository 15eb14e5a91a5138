import { ChangeLog } from '../change-log/change-log.repository';
import { projectOwnedBy } from '../project-scope/project-sql';
import { Injectable } from '@nestjs/common';
import {
  Database,
  managerOf,
  type Transaction,
} from '../database/database.service';
import { isoTimestamp, sqlFor, type Sql } from '../database/sql';
import type { AssetRef } from './asset-bytes/asset-bytes';
import { ASSET_COLUMNS, type AssetRecord } from './dto/asset.dto';
import { SECTION_FIELDS, type SectionDto } from '../sections/dto/section.dto';

/** A section's fields, as the project's answer shows them. */
const SECTION_COLUMNS = SECTION_FIELDS.map((name) => `"${name}"`).join(', ');

/**
 * The only code that reads and writes the assets and asset_contents tables,
 * in hand-written SQL, the same statements on SQLite (BLOB) and PostgreSQL
 * (bytea), listed in sql/<dialect>/assets.repository.sql. The columns
 * of its SELECT and INSERT are AssetDto's stored fields (ASSET_COLUMNS).
 */

const quoted = ASSET_COLUMNS.map((name) => `"${name}"`).join(', ');
const ASSET_SELECT = `SELECT ${quoted} FROM "assets"`;
const ASSET_INSERT = `INSERT INTO "assets" (${quoted}) VALUES (${ASSET_COLUMNS.map(
  (_, index) => `$${index + 1}`,
).join(', ')})`;

/**
 * The assets ASSET_MAX_PER_PROJECT counts: all but the brand kit's files,
 * derived from a logo and replaced (not added to) when the kit is made
 * again, so a project holds at most one kit's files of them.
 */
const COUNTED = `"kind" <> 'brand-kit'`;

/** A selected row with the driver's types made the DTO's. */
const fromRow = (row: AssetRecord): AssetRecord => ({
  ...row,
  byteSize: Number(row.byteSize),
  createdAt: isoTimestamp(row.createdAt),
  width: row.width === null ? null : Number(row.width),
  height: row.height === null ? null : Number(row.height),
});

/** An image asset whose size has not been read yet (kept before sizes were). */
export interface UnsizedAsset {
  id: string;
  projectId: string;
  byteSize: number;
  contentType: string;
}

/**
 * Ids are looked up this many at a time, the last batch padded, so that
 * every lookup is the same statement text (each driver caches one
 * prepared statement per text).
 */
const ID_BATCH = 100;
const IDS_IN_BATCH = `SELECT "id" FROM "assets" WHERE "id" IN (${Array.from(
  { length: ID_BATCH },
  (_, index) => `$${index + 1}`,
).join(', ')})`;

/**
 * Database-kept bytes are stored in parts of this size: one part is what
 * serving reads per statement, and what one response holds in memory.
 */
export const ASSET_PART_BYTES = 256 * 1024;

@Injectable()
export class AssetsRepository {
  constructor(
    private readonly db: Database,
    private readonly changeLog: ChangeLog,
  ) {}

  /** The id of the project's LOGO section (every project has one). */
  async logoSectionId(
    transaction: Transaction,
    projectId: string,
  ): Promise<string | null> {
    const [row] = await sqlFor(managerOf(transaction)).rows<{ id: string }>(
      `SELECT "id" FROM "sections" WHERE "projectId" = $1 AND "type" = 'LOGO' ORDER BY "position" LIMIT 1`,
      [projectId],
    );
    return row?.id ?? null;
  }

  /**
   * Takes one free asset slot of the project until `expiresAt` (epoch ms),
   * in a transaction that holds the project's row (ProjectScope.hold),
   * so concurrent keeps count one after another; 'full' when its assets
   * and the slots taken by keeps in progress reach `max`. Slots whose time
   * ran out (a process that died mid-call) are dropped on the way.
   */
  async reserveSlot(
    transaction: Transaction,
    projectId: string,
    max: number,
    reservation: { id: string; expiresAt: number },
  ): Promise<'reserved' | 'full'> {
    const sql = sqlFor(managerOf(transaction));
    await sql.changes(
      'DELETE FROM "asset_slot_reservations" WHERE "projectId" = $1 AND "expiresAt" <= $2',
      [projectId, Date.now()],
    );
    const [row] = await sql.rows<{ count: number | string }>(
      `SELECT (SELECT COUNT(*) FROM "assets" WHERE "projectId" = $1 AND ${COUNTED}) + (SELECT COUNT(*) FROM "asset_slot_reservations" WHERE "projectId" = $1) AS "count"`,
      [projectId],
    );
    if (Number(row.count) >= max) return 'full';
    await sql.changes(
      'INSERT INTO "asset_slot_reservations" ("id", "projectId", "expiresAt") VALUES ($1, $2, $3)',
      [reservation.id, projectId, reservation.expiresAt],
    );
    return 'reserved';
  }

  /**
   * Gives a slot back: in the transaction that stores its asset (so no
   * moment counts both), or on its own when the keep failed.
   */
  async releaseSlot(
    reservationId: string,
    transaction?: Transaction,
  ): Promise<void> {
    const release = (sql: Sql) =>
      sql.changes('DELETE FROM "asset_slot_reservations" WHERE "id" = $1', [
        reservationId,
      ]);
    if (transaction) await release(sqlFor(managerOf(transaction)));
    else await this.db.write((manager) => release(sqlFor(manager)));
  }

  /**
   * How many assets the project holds that count against its limit (the
   * brand kit's files do not), in the transaction that adds one.
   */
  async countOfProject(
    transaction: Transaction,
    projectId: string,
  ): Promise<number> {
    const [row] = await sqlFor(managerOf(transaction)).rows<{
      count: number | string;
    }>(
      `SELECT COUNT(*) AS "count" FROM "assets" WHERE "projectId" = $1 AND ${COUNTED}`,
      [projectId],
    );
    return Number(row.count);
  }

  /**
   * Deletes the project's assets of `kind` whose prompt starts with
   * `promptStart` but `keptId` (the file a new kit file replaces), with
   * their database bytes; the ids deleted, for their bytes kept elsewhere.
   */
  async deleteReplaced(
    transaction: Transaction,
    target: {
      projectId: string;
      kind: string;
      promptStart: string;
      keptId: string;
    },
  ): Promise<string[]> {
    const { projectId, kind, promptStart, keptId } = target;
    // substr, not LIKE: a file name's "_" would be a wildcard. The casts
    // give PostgreSQL the parameter's type (length takes several).
    const rows = await sqlFor(managerOf(transaction)).changedRows<{
      id: string;
    }>(
      'DELETE FROM "assets" WHERE "projectId" = $1 AND "kind" = $2 AND substr("prompt", 1, length(CAST($3 AS text))) = CAST($3 AS text) AND "id" <> $4 RETURNING "id"',
      [projectId, kind, promptStart, keptId],
    );
    for (const { id } of rows) {
      this.changeLog.record(transaction, projectId, {
        type: 'asset.deleted',
        key: id,
        data: { assetId: id },
      });
    }
    return rows.map(({ id }) => id);
  }

  async insert(transaction: Transaction, asset: AssetRecord): Promise<void> {
    const sql = sqlFor(managerOf(transaction));
    await sql.changes(
      ASSET_INSERT,
      ASSET_COLUMNS.map((name) =>
        name === 'createdAt'
          ? sql.timestamp(new Date(asset.createdAt))
          : asset[name],
      ),
    );
    this.changeLog.record(transaction, asset.projectId, {
      type: 'asset.created',
      key: asset.id,
      // The asset as stored: its url depends on who reads the event, and
      // when (a signed URL expires), so the stream makes it as it sends.
      data: {
        assetId: asset.id,
        sectionId: asset.sectionId,
        kind: asset.kind,
        asset,
      },
    });
  }

  /**
   * The bytes of a new asset, in the transaction of its row, as parts of
   * ASSET_PART_BYTES (the last one shorter).
   */
  async insertContent(
    transaction: Transaction,
    assetId: string,
    bytes: Buffer,
  ): Promise<void> {
    const sql = sqlFor(managerOf(transaction));
    for (let part = 0; part * ASSET_PART_BYTES < bytes.length; part++) {
      const start = part * ASSET_PART_BYTES;
      await sql.changes(
        'INSERT INTO "asset_contents" ("assetId", "part", "bytes") VALUES ($1, $2, $3)',
        [assetId, part, bytes.subarray(start, start + ASSET_PART_BYTES)],
      );
    }
  }

  /** How many parts of an asset's bytes the database holds (0: none). */
  async countContentParts(assetId: string): Promise<number> {
    const [row] = await this.db.read((manager) =>
      sqlFor(manager).rows<{ count: number | string }>(
        'SELECT COUNT(*) AS "count" FROM "asset_contents" WHERE "assetId" = $1',
        [assetId],
      ),
    );
    return Number(row.count);
  }

  /** One asset of a project (of the owner's, when one is given), or null. */
  async find(
    projectId: string,
    assetId: string,
    owner?: string,
  ): Promise<AssetRecord | null> {
    const [row] = await this.db.read((manager) =>
      sqlFor(manager).rows<AssetRecord>(
        owner === undefined
          ? `${ASSET_SELECT} WHERE "id" = $1 AND "projectId" = $2`
          : `${ASSET_SELECT} WHERE "id" = $1 AND "projectId" = $2 AND ${projectOwnedBy('$2', 3)}`,
        owner === undefined
          ? [assetId, projectId]
          : [assetId, projectId, owner],
      ),
    );
    return row ? fromRow(row) : null;
  }

  /**
   * Deletes one asset (its database bytes go with it); true if it was
   * there. A section that chose it chooses nothing any more: cleared here,
   * with the section's event, rather than by the foreign key alone (ON
   * DELETE SET NULL), which changes the section without one — a page
   * applying events would keep the choice while a task runs for it.
   */
  async delete(transaction: Transaction, ref: AssetRef): Promise<boolean> {
    const sql = sqlFor(managerOf(transaction));
    const released = await sql.changedRows<SectionDto>(
      `UPDATE "sections" SET "selectedAssetId" = NULL, "updatedAt" = $3 WHERE "projectId" = $1 AND "selectedAssetId" = $2 RETURNING ${SECTION_COLUMNS}`,
      [ref.projectId, ref.assetId, sql.timestamp(new Date())],
    );
    const changed = await sql.changes(
      'DELETE FROM "assets" WHERE "id" = $1 AND "projectId" = $2',
      [ref.assetId, ref.projectId],
    );
    if (changed === 0) return false;
    for (const row of released) {
      const section: SectionDto = {
        ...row,
        createdAt: isoTimestamp(row.createdAt),
        updatedAt: isoTimestamp(row.updatedAt),
      };
      this.changeLog.record(transaction, ref.projectId, {
        type: 'section.updated',
        key: section.id,
        data: { sectionId: section.id, selectedAssetId: null, section },
      });
    }
    this.changeLog.record(transaction, ref.projectId, {
      type: 'asset.deleted',
      key: ref.assetId,
      data: { assetId: ref.assetId },
    });
    return true;
  }

  /** One part of an asset's bytes (from 0), or null once it is gone. */
  readContentPart(assetId: string, part: number): Promise<Buffer | null> {
    return this.db.read(async (manager) => {
      const [row] = await sqlFor(manager).rows<{
        bytes: Buffer | Uint8Array | null;
      }>(
        'SELECT "bytes" FROM "asset_contents" WHERE "assetId" = $1 AND "part" = $2',
        [assetId, part],
      );
      if (!row || row.bytes === null) return null;
      return Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes);
    });
  }

  /**
   * Up to `limit` PNG, JPEG or WebP assets without a size, by id after
   * `after` (keyset: each batch starts where the last one ended, so an
   * image whose size cannot be read is passed, not read again).
   */
  async unsized(after: string, limit: number): Promise<UnsizedAsset[]> {
    const rows = await this.db.read((manager) =>
      sqlFor(manager).rows<UnsizedAsset>(
        `SELECT "id", "projectId", "byteSize", "contentType" FROM "assets" WHERE "width" IS NULL AND "contentType" IN ('image/png', 'image/jpeg', 'image/webp') AND "id" > $1 ORDER BY "id" LIMIT $2`,
        [after, limit],
      ),
    );
    return rows.map((row) => ({ ...row, byteSize: Number(row.byteSize) }));
  }

  /**
   * Records the size read from an asset's bytes, unless another process
   * did first. Not a change of the project (no version, no event): the
   * bytes are the same, only now described.
   */
  async setSize(
    assetId: string,
    size: { width: number; height: number },
  ): Promise<void> {
    await this.db.write((manager) =>
      sqlFor(manager).changes(
        'UPDATE "assets" SET "width" = $2, "height" = $3 WHERE "id" = $1 AND "width" IS NULL',
        [assetId, size.width, size.height],
      ),
    );
  }

  /** Which of these asset ids have a row (the S3 store's sweep asks). */
  async existingAssetIds(ids: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let start = 0; start < ids.length; start += ID_BATCH) {
      const batch = ids.slice(start, start + ID_BATCH);
      const params = Array.from(
        { length: ID_BATCH },
        (_, index) => batch[index] ?? batch[0],
      );
      const rows = await this.db.read((manager) =>
        sqlFor(manager).rows<{ id: string }>(IDS_IN_BATCH, params),
      );
      for (const row of rows) found.add(row.id);
    }
    return found;
  }
}
