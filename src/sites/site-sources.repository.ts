import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.service';
import { sqlFor } from '../database/sql';

/**
 * The reads of the project's assets a site is made of (sql/<dialect>/
 * site-sources.repository.sql): asset ids only, their bytes come from the
 * asset store.
 */
@Injectable()
export class SiteSourcesRepository {
  constructor(private readonly db: Database) {}

  /** The CODE section's chosen asset, when it is a landing page. */
  async chosenPage(projectId: string): Promise<string | undefined> {
    const [row] = await this.db.read((manager) =>
      sqlFor(manager).rows<{ id: string }>(
        `SELECT a."id" FROM "sections" s JOIN "assets" a ON a."id" = s."selectedAssetId" WHERE s."projectId" = $1 AND s."type" = 'CODE' AND a."kind" = 'landing-page' ORDER BY s."position" LIMIT 1`,
        [projectId],
      ),
    );
    return row?.id;
  }

  /** The project's newest site-report assets, newest first, at most `limit`. */
  async newestReports(projectId: string, limit: number): Promise<string[]> {
    const rows = await this.db.read((manager) =>
      sqlFor(manager).rows<{ id: string }>(
        `SELECT "id" FROM "assets" WHERE "projectId" = $1 AND "kind" = 'site-report' ORDER BY "createdAt" DESC, "id" DESC LIMIT $2`,
        [projectId, limit],
      ),
    );
    return rows.map((row) => row.id);
  }

  /** The newest brand-kit file of each of `names` the project holds. */
  async kitFiles(
    projectId: string,
    names: readonly string[],
  ): Promise<Map<string, string>> {
    const rows = await this.db.read((manager) =>
      sqlFor(manager).rows<{ id: string; fileName: string }>(
        `SELECT "id", "fileName" FROM "assets" WHERE "projectId" = $1 AND "kind" = 'brand-kit' ORDER BY "createdAt" DESC, "id" DESC`,
        [projectId],
      ),
    );
    const files = new Map<string, string>();
    for (const row of rows) {
      if (names.includes(row.fileName) && !files.has(row.fileName)) {
        files.set(row.fileName, row.id);
      }
    }
    return files;
  }

  /**
   * The site's social image: the GRAPHICS section's chosen asset when it
   * is an og graphic, else the newest graphic named og.png.
   */
  async ogGraphic(projectId: string): Promise<string | undefined> {
    const [row] = await this.db.read((manager) =>
      sqlFor(manager).rows<{ id: string }>(
        `SELECT a."id" FROM "assets" a LEFT JOIN "sections" s ON s."projectId" = a."projectId" AND s."type" = 'GRAPHICS' AND s."selectedAssetId" = a."id" WHERE a."projectId" = $1 AND a."kind" = 'graphic' AND a."fileName" = 'og.png' ORDER BY CASE WHEN s."id" IS NULL THEN 1 ELSE 0 END, a."createdAt" DESC, a."id" DESC LIMIT 1`,
        [projectId],
      ),
    );
    return row?.id;
  }
}
