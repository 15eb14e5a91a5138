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
  /** Its asset_contents parts' total length and SHA-256; null when none. */
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

/** Each asset with the total length of its parts (NULL: no part at all). */
const ASSETS_SQL = `SELECT a."id" AS "id", a."projectId" AS "projectId",
    a."sha256" AS "sha256", a."byteSize" AS "byteSize",
    (SELECT SUM(length(c."bytes")) FROM "asset_contents" c
      WHERE c."assetId" = a."id") AS "contentLength"
  FROM "assets" a`;
/** An asset's parts in order: their bytes joined are the asset's bytes. */
const BYTES_SQL = {
  sqlite:
    'SELECT "bytes" FROM "asset_contents" WHERE "assetId" = ? ORDER BY "part"',
  postgres:
    'SELECT "bytes" FROM "asset_contents" WHERE "assetId" = $1 ORDER BY "part"',
};
const PROJECTS_SQL = 'SELECT "id" FROM "projects"';
const ORPHAN_CONTENTS_SQL = `SELECT DISTINCT c."assetId" AS "assetId" FROM "asset_contents" c
  WHERE NOT EXISTS (SELECT 1 FROM "assets" a WHERE a."id" = c."assetId")`;

interface AssetSqlRow {
  id: string;
  projectId: string;
  sha256: string;
  byteSize: number | string;
  contentLength: number | string | null;
}

/**
 * The stored rows, each with its bytes' length and hash. `hashes` caches
 * the hash of bytes read before (an asset's bytes never change), so a
 * check after every kill reads only the bytes written since the last one.
 */
async function withHashes(
  rows: AssetSqlRow[],
  hashes: Map<string, string>,
  readBytes: (assetId: string) => Promise<Buffer | null>,
): Promise<StoredAsset[]> {
  const assets: StoredAsset[] = [];
  for (const row of rows) {
    let content: StoredAsset['content'] = null;
    if (row.contentLength !== null) {
      let sha256 = hashes.get(row.id);
      if (sha256 === undefined) {
        const bytes = (await readBytes(row.id)) ?? Buffer.alloc(0);
        sha256 = createHash('sha256').update(bytes).digest('hex');
        hashes.set(row.id, sha256);
      }
      content = { length: Number(row.contentLength), sha256 };
    }
    assets.push({
      id: row.id,
      projectId: row.projectId,
      sha256: row.sha256,
      byteSize: Number(row.byteSize),
      content,
    });
  }
  return assets;
}

/**
 * Reads every asset row, its bytes' hash and the projects from the database
 * a (stopped or killed) server used. A SQLite file is opened read-write:
 * opening it is the recovery a restart would do.
 */
export async function readStoredAssets(
  database: TestDatabase,
  hashes = new Map<string, string>(),
): Promise<StoredAssets> {
  if (TEST_DATABASE === 'sqlite') {
    const db = new Database(database.url.slice('file:'.length));
    try {
      const bytesOf = db.prepare(BYTES_SQL.sqlite);
      const assets = await withHashes(
        db.prepare(ASSETS_SQL).all() as AssetSqlRow[],
        hashes,
        (id) => {
          const parts = bytesOf.all(id) as Array<{ bytes: Buffer }>;
          return Promise.resolve(
            parts.length === 0
              ? null
              : Buffer.concat(parts.map((part) => part.bytes)),
          );
        },
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
    const assets = await withHashes(
      (await client.query<AssetSqlRow>(ASSETS_SQL)).rows,
      hashes,
      async (id) => {
        const { rows } = await client.query<{ bytes: Buffer }>(
          BYTES_SQL.postgres,
          [id],
        );
        return rows.length === 0
          ? null
          : Buffer.concat(rows.map((part) => part.bytes));
      },
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
