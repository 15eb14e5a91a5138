import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database.service';
import { sqlFor } from '../../database/sql';

/** A stored square PNG rendition of an asset. */
export interface StoredRendition {
  sha256: string;
  bytes: Buffer;
}

/**
 * The only code that reads and writes asset_renditions (sql/<dialect>/
 * asset-renditions.repository.sql lists its statements). A rendition row
 * goes with its asset (ON DELETE CASCADE).
 */
@Injectable()
export class AssetRenditionsRepository {
  constructor(private readonly db: Database) {}

  /** The rendition of `assetId` at `size`, or null when none was made. */
  find(assetId: string, size: number): Promise<StoredRendition | null> {
    return this.db.read(async (manager) => {
      const [row] = await sqlFor(manager).rows<{
        sha256: string;
        bytes: Buffer | Uint8Array;
      }>(
        'SELECT "sha256", "bytes" FROM "asset_renditions" WHERE "assetId" = $1 AND "size" = $2',
        [assetId, size],
      );
      if (!row) return null;
      const bytes = Buffer.isBuffer(row.bytes)
        ? row.bytes
        : Buffer.from(row.bytes);
      return { sha256: row.sha256, bytes };
    });
  }

  /**
   * Keeps a rendition. Two requests may make the same one at once: the
   * second insert changes nothing (both made the same bytes). False when
   * the asset is gone meanwhile.
   */
  async insert(
    assetId: string,
    size: number,
    rendition: StoredRendition,
  ): Promise<boolean> {
    return this.db.write(async (manager) => {
      const sql = sqlFor(manager);
      const [asset] = await sql.rows<{ id: string }>(
        'SELECT "id" FROM "assets" WHERE "id" = $1',
        [assetId],
      );
      if (!asset) return false;
      await sql.changes(
        'INSERT INTO "asset_renditions" ("assetId", "size", "sha256", "bytes") VALUES ($1, $2, $3, $4) ON CONFLICT ("assetId", "size") DO NOTHING',
        [assetId, size, rendition.sha256, rendition.bytes],
      );
      return true;
    });
  }
}
