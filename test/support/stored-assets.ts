import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { TEST_DATABASE, type TestDatabase } from './test-database';

/** One assets row as the database holds it, with what its bytes hash to. */
export interface StoredAsset {
  id: string;
  projectId: string;
  sha256: string;
  byteSize: number;
  /** The asset_contents row's length and SHA-256; null when there is none. */
  content: { length: number; sha256: string } | null;
}

/** What a crash check reads, straight from the database (no service). */
export interface StoredAssets {
  assets: StoredAsset[];
  /** Ids of projects that exist. */
  projects: Set<string>;
  /** asset_contents rows whose asset row is missing. */
  contentsWithoutAsset: string[];
  /** SQLite's integrity_check ("ok" on PostgreSQL). */
  integrity: string;
}

const ASSETS_SQL = `SELECT a."id" AS "id", a."projectId" AS "projectId",
    a."sha256" AS "sha256", a."byteSize" AS "byteSize", c."bytes" AS "bytes"
  FROM "assets" a LEFT JOIN "asset_contents" c ON c."assetId" = a."id"`;
const PROJECTS_SQL = 'SELECT "id" FROM "projects"';
const ORPHAN_CONTENTS_SQL = `SELECT c."assetId" AS "assetId" FROM "asset_contents" c
  WHERE NOT EXISTS (SELECT 1 FROM "assets" a WHERE a."id" = c."assetId")`;

interface AssetSqlRow {
  id: string;
  projectId: string;
  sha256: string;
  byteSize: number | string;
  bytes: Buffer | Uint8Array | null;
}

const toStored = (row: AssetSqlRow): StoredAsset => {
  const bytes = row.bytes === null ? null : Buffer.from(row.bytes);
  return {
    id: row.id,
    projectId: row.projectId,
    sha256: row.sha256,
    byteSize: Number(row.byteSize),
    content: bytes && {
      length: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    },
  };
};

/**
 * Reads every asset row, its bytes' hash and the projects from the database
 * a (stopped or killed) server used. A SQLite file is opened read-write:
 * opening it is the recovery a restart would do.
 */
export async function readStoredAssets(
  database: TestDatabase,
): Promise<StoredAssets> {
  if (TEST_DATABASE === 'sqlite') {
    const db = new Database(database.url.slice('file:'.length));
    try {
      const assets = (db.prepare(ASSETS_SQL).all() as AssetSqlRow[]).map(
        toStored,
      );
      const projects = new Set(
        (db.prepare(PROJECTS_SQL).all() as Array<{ id: string }>).map(
          (row) => row.id,
        ),
      );
      const contentsWithoutAsset = (
        db.prepare(ORPHAN_CONTENTS_SQL).all() as Array<{ assetId: string }>
      ).map((row) => row.assetId);
      const integrity = (
        db.pragma('integrity_check') as Array<{ integrity_check: string }>
      )
        .map((row) => row.integrity_check)
        .join('; ');
      return { assets, projects, contentsWithoutAsset, integrity };
    } finally {
      db.close();
    }
  }
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    const assets = (await client.query<AssetSqlRow>(ASSETS_SQL)).rows.map(
      toStored,
    );
    const projects = new Set(
      (await client.query<{ id: string }>(PROJECTS_SQL)).rows.map(
        (row) => row.id,
      ),
    );
    const contentsWithoutAsset = (
      await client.query<{ assetId: string }>(ORPHAN_CONTENTS_SQL)
    ).rows.map((row) => row.assetId);
    return { assets, projects, contentsWithoutAsset, integrity: 'ok' };
  } finally {
    await client.end();
  }
}
