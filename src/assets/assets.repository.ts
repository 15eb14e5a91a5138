import { Injectable } from '@nestjs/common';
import {
  Database,
  managerOf,
  type Transaction,
} from '../database/database.service';
import { isoTimestamp, sqlFor, type Sql } from '../database/sql';
import type { AssetRef } from './asset-bytes/asset-bytes';
import { ASSET_COLUMNS, type AssetRecord } from './dto/asset.dto';

/**
 * The only code that reads and writes the assets and asset_contents tables,
 * in hand-written SQL, the same statements on SQLite (BLOB) and PostgreSQL
 * (bytea), listed in sql/<dialect>/assets.repository.sql.
 */

/** Which project a change to its assets applies to. */
export interface AssetsOwner {
  projectId: string;
  /** Only a project of this user (a proven caller's own). */
  owner?: string;
  /** Only while the project is at one of these versions (If-Match). */
  versions?: number[];
}

const quoted = ASSET_COLUMNS.map((name) => `"${name}"`).join(', ');
const ASSET_SELECT = `SELECT ${quoted} FROM "assets"`;
const ASSET_INSERT = `INSERT INTO "assets" (${quoted}) VALUES (${ASSET_COLUMNS.map(
  (_, index) => `$${index + 1}`,
).join(', ')})`;

/** A selected row with the driver's types made the DTO's. */
const fromRow = (row: AssetRecord): AssetRecord => ({
  ...row,
  byteSize: Number(row.byteSize),
  createdAt: isoTimestamp(row.createdAt),
});

/**
 * Moves the project's version on (its ETag covers its assets) and, on
 * PostgreSQL, holds its row until the commit, so that two changes to one
 * project's assets take turns (the per-project limit counts correctly).
 * The new version, or null when no such project (of that owner, at one of
 * those versions) exists.
 *
 * Without versions the increment is one UPDATE: a concurrent change waits
 * for the row and then applies on top. With versions (If-Match) the UPDATE
 * names the version it read, so of two changes made against one version
 * only one goes through; the other is refused, as If-Match asks.
 */
async function touchProject(
  sql: Sql,
  target: AssetsOwner,
): Promise<number | null> {
  const ownerCheck = target.owner === undefined ? '' : ' AND "userId" = $2';
  const params =
    target.owner === undefined
      ? [target.projectId]
      : [target.projectId, target.owner];
  if (!target.versions) {
    const changed = await sql.changes(
      `UPDATE "projects" SET "version" = "version" + 1 WHERE "id" = $1${ownerCheck}`,
      params,
    );
    if (changed === 0) return null;
    // The row is this transaction's until it commits: this is our version.
    const [row] = await sql.rows<{ version: number | string }>(
      'SELECT "version" FROM "projects" WHERE "id" = $1',
      [target.projectId],
    );
    return Number(row.version);
  }
  const [row] = await sql.rows<{ version: number | string }>(
    `SELECT "version" FROM "projects" WHERE "id" = $1${ownerCheck}`,
    params,
  );
  if (!row) return null;
  const version = Number(row.version);
  if (!target.versions.includes(version)) return null;
  const changed = await sql.changes(
    'UPDATE "projects" SET "version" = "version" + 1 WHERE "id" = $1 AND "version" = $2',
    [target.projectId, version],
  );
  return changed === 0 ? null : version + 1;
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
  constructor(private readonly db: Database) {}

  /** See touchProject: the project's new version, or null. */
  touchProject(
    transaction: Transaction,
    target: AssetsOwner,
  ): Promise<number | null> {
    return touchProject(sqlFor(managerOf(transaction)), target);
  }

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
   * or answers why not: 'missing' (no such project of that owner) or 'full'
   * (its assets and the slots taken by keeps in progress reach `max`). The
   * project's row is locked first (a no-op UPDATE: PostgreSQL holds the row
   * until the commit, SQLite runs one transaction at a time), so concurrent
   * keeps count one after another. Slots whose time ran out (a process that
   * died mid-call) are dropped on the way.
   */
  async reserveSlot(
    target: { projectId: string; owner?: string },
    max: number,
    reservationId: string,
    expiresAt: number,
  ): Promise<'reserved' | 'missing' | 'full'> {
    const { projectId, owner } = target;
    return this.db.transaction(async (transaction) => {
      const sql = sqlFor(managerOf(transaction));
      const locked = await sql.changes(
        owner === undefined
          ? 'UPDATE "projects" SET "version" = "version" WHERE "id" = $1'
          : 'UPDATE "projects" SET "version" = "version" WHERE "id" = $1 AND "userId" = $2',
        owner === undefined ? [projectId] : [projectId, owner],
      );
      if (locked === 0) return 'missing';
      await sql.changes(
        'DELETE FROM "asset_slot_reservations" WHERE "projectId" = $1 AND "expiresAt" <= $2',
        [projectId, Date.now()],
      );
      const [row] = await sql.rows<{ count: number | string }>(
        'SELECT (SELECT COUNT(*) FROM "assets" WHERE "projectId" = $1) + (SELECT COUNT(*) FROM "asset_slot_reservations" WHERE "projectId" = $1) AS "count"',
        [projectId],
      );
      if (Number(row.count) >= max) return 'full';
      await sql.changes(
        'INSERT INTO "asset_slot_reservations" ("id", "projectId", "expiresAt") VALUES ($1, $2, $3)',
        [reservationId, projectId, expiresAt],
      );
      return 'reserved';
    });
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

  /** How many assets the project holds, in the transaction that adds one. */
  async countOfProject(
    transaction: Transaction,
    projectId: string,
  ): Promise<number> {
    const [row] = await sqlFor(managerOf(transaction)).rows<{
      count: number | string;
    }>('SELECT COUNT(*) AS "count" FROM "assets" WHERE "projectId" = $1', [
      projectId,
    ]);
    return Number(row.count);
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
          : `${ASSET_SELECT} WHERE "id" = $1 AND "projectId" = $2 AND EXISTS (SELECT 1 FROM "projects" WHERE "id" = $2 AND "userId" = $3)`,
        owner === undefined
          ? [assetId, projectId]
          : [assetId, projectId, owner],
      ),
    );
    return row ? fromRow(row) : null;
  }

  /** Deletes one asset (its database bytes go with it); true if it was there. */
  async delete(transaction: Transaction, ref: AssetRef): Promise<boolean> {
    const changed = await sqlFor(managerOf(transaction)).changes(
      'DELETE FROM "assets" WHERE "id" = $1 AND "projectId" = $2',
      [ref.assetId, ref.projectId],
    );
    return changed > 0;
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
