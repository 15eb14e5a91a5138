import { Injectable } from '@nestjs/common';
import {
  Database,
  managerOf,
  type Transaction,
} from '../database/database.service';
import { sqlFor } from '../database/sql';

/** An image asset a kit can be made from. */
export interface KitSource {
  id: string;
  prompt: string;
}

/** One kept file of a kit. */
export interface KitFileRow {
  id: string;
  projectId: string;
  /** Its name in the kit (favicon.ico, logo.png, …). */
  fileName: string;
  byteSize: number;
}

/**
 * The brand kit's reads (sql/<dialect>/brand-kit.repository.sql): which
 * logo a kit is made from, and the newest kept file of each name made from
 * a logo.
 */
@Injectable()
export class BrandKitRepository {
  constructor(private readonly db: Database) {}

  /** The LOGO section's chosen asset, if any. */
  async chosenLogoId(
    transaction: Transaction,
    projectId: string,
  ): Promise<string | undefined> {
    const [row] = await sqlFor(managerOf(transaction)).rows<{
      selectedAssetId: string | null;
    }>(
      `SELECT "selectedAssetId" FROM "sections" WHERE "projectId" = $1 AND "type" = 'LOGO' ORDER BY "position" LIMIT 1`,
      [projectId],
    );
    return row?.selectedAssetId ?? undefined;
  }

  /** A PNG, JPEG or WebP asset of the project, or undefined. */
  async imageAsset(
    transaction: Transaction,
    projectId: string,
    assetId: string,
  ): Promise<KitSource | undefined> {
    const [row] = await sqlFor(managerOf(transaction)).rows<KitSource>(
      `SELECT "id", "prompt" FROM "assets" WHERE "id" = $1 AND "projectId" = $2 AND "contentType" IN ('image/png', 'image/jpeg', 'image/webp')`,
      [assetId, projectId],
    );
    return row;
  }

  /** The LOGO section's chosen asset, read outside a transaction. */
  async chosenLogoOf(projectId: string): Promise<string | undefined> {
    return this.db.read((manager) =>
      this.chosenLogoId(manager as unknown as Transaction, projectId),
    );
  }

  /** The kit files made from `logoId`, newest first. */
  async kitFiles(projectId: string, logoId: string): Promise<KitFileRow[]> {
    const rows = await this.db.read((manager) =>
      sqlFor(manager).rows<KitFileRow>(
        `SELECT "id", "projectId", "fileName", "byteSize" FROM "assets" WHERE "projectId" = $1 AND "kind" = 'brand-kit' AND "prompt" LIKE $2 ORDER BY "createdAt" DESC, "id" DESC`,
        [projectId, `% from logo ${logoId}`],
      ),
    );
    return rows.map((row) => ({ ...row, byteSize: Number(row.byteSize) }));
  }
}
