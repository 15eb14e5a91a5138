import { Injectable } from '@nestjs/common';
import {
  Database,
  managerOf,
  type Transaction,
} from '../database/database.service';
import { sqlFor } from '../database/sql';
import {
  deploymentFileName,
  type SiteFile,
  type SiteFileEntry,
} from './site-files';

/** One published version of a project's site. */
export interface SiteVersionRow {
  projectId: string;
  version: number;
  taskId: string;
  /** The site check report it passed; null when forced without one. */
  reportId: string | null;
  files: SiteFileEntry[];
  publishedAt: string;
}

/** A new version, before it has its number. */
export type NewSiteVersion = Omit<SiteVersionRow, 'version'>;

/** A file's bytes as the database store keeps them. */
export interface StoredSiteFile {
  contentType: string;
  sha256: string;
  bytes: Buffer;
}

interface VersionSqlRow {
  projectId: string;
  version: number | string;
  taskId: string;
  reportId: string | null;
  files: string;
  publishedAt: string;
}

const VERSION_COLUMNS =
  'v."projectId", v."version", v."taskId", v."reportId", v."files", v."publishedAt"';

const toVersion = (row: VersionSqlRow): SiteVersionRow => ({
  ...row,
  version: Number(row.version),
  files: JSON.parse(row.files) as SiteFileEntry[],
});

/**
 * The only code that reads and writes sites, site_versions and site_files
 * (sql/<dialect>/sites.repository.sql lists its statements). A version,
 * once written, never changes; only `sites.currentVersion` moves.
 */
@Injectable()
export class SitesRepository {
  constructor(private readonly db: Database) {}

  /** The version a task published already (a retried attempt), if any. */
  async versionOfTask(taskId: string): Promise<SiteVersionRow | undefined> {
    const [row] = await this.db.read((manager) =>
      sqlFor(manager).rows<VersionSqlRow>(
        `SELECT ${VERSION_COLUMNS} FROM "site_versions" v WHERE v."taskId" = $1`,
        [taskId],
      ),
    );
    return row && toVersion(row);
  }

  /**
   * Writes the project's next version (the highest so far + 1) and, for
   * the database store, its files' bytes, in one transaction. Undefined
   * when the project is gone.
   */
  async addVersion(
    site: NewSiteVersion,
    bytes: readonly SiteFile[],
  ): Promise<number | undefined> {
    return this.db.transaction(async (transaction) => {
      const sql = sqlFor(managerOf(transaction));
      // Holds the project's row: two publishes of one project number in turn.
      const held = await sql.changes(
        'UPDATE "projects" SET "version" = "version" WHERE "id" = $1',
        [site.projectId],
      );
      if (held === 0) return undefined;
      const [{ last }] = await sql.rows<{ last: number | string | null }>(
        'SELECT MAX("version") AS "last" FROM "site_versions" WHERE "projectId" = $1',
        [site.projectId],
      );
      const version = Number(last ?? 0) + 1;
      await sql.changes(
        'INSERT INTO "site_versions" ("projectId", "version", "taskId", "reportId", "files", "publishedAt") VALUES ($1, $2, $3, $4, $5, $6)',
        [
          site.projectId,
          version,
          site.taskId,
          site.reportId,
          JSON.stringify(site.files),
          site.publishedAt,
        ],
      );
      for (const file of bytes) {
        await sql.changes(
          'INSERT INTO "site_files" ("projectId", "version", "path", "contentType", "sha256", "bytes") VALUES ($1, $2, $3, $4, $5, $6)',
          [
            site.projectId,
            version,
            file.path,
            file.contentType,
            file.sha256,
            file.bytes,
          ],
        );
      }
      return version;
    });
  }

  /** One version of the project's site, if it was published. */
  async version(
    projectId: string,
    version: number,
  ): Promise<SiteVersionRow | undefined> {
    const [row] = await this.db.read((manager) =>
      sqlFor(manager).rows<VersionSqlRow>(
        `SELECT ${VERSION_COLUMNS} FROM "site_versions" v WHERE v."projectId" = $1 AND v."version" = $2`,
        [projectId, version],
      ),
    );
    return row && toVersion(row);
  }

  /** The current version's number, or undefined when none is current. */
  async currentVersion(projectId: string): Promise<number | undefined> {
    const [row] = await this.db.read((manager) =>
      sqlFor(manager).rows<{ currentVersion: number | string | null }>(
        'SELECT "currentVersion" FROM "sites" WHERE "projectId" = $1',
        [projectId],
      ),
    );
    return row?.currentVersion == null ? undefined : Number(row.currentVersion);
  }

  /** The current version, with its deployment asset's id (null once deleted). */
  async current(
    projectId: string,
  ): Promise<(SiteVersionRow & { deploymentId: string | null }) | undefined> {
    return this.db.read(async (manager) => {
      const sql = sqlFor(manager);
      const [row] = await sql.rows<VersionSqlRow>(
        `SELECT ${VERSION_COLUMNS} FROM "sites" s JOIN "site_versions" v ON v."projectId" = s."projectId" AND v."version" = s."currentVersion" WHERE s."projectId" = $1`,
        [projectId],
      );
      if (!row) return undefined;
      const site = toVersion(row);
      const [asset] = await sql.rows<{ id: string }>(
        `SELECT "id" FROM "assets" WHERE "projectId" = $1 AND "kind" = 'deployment' AND "fileName" = $2 ORDER BY "createdAt" DESC LIMIT 1`,
        [projectId, deploymentFileName(site.version)],
      );
      return { ...site, deploymentId: asset?.id ?? null };
    });
  }

  /**
   * Makes `version` the project's current one, in the caller's
   * transaction (which holds the project). False when no such version.
   */
  async makeCurrent(
    transaction: Transaction,
    projectId: string,
    version: number,
    at: string,
  ): Promise<boolean> {
    const sql = sqlFor(managerOf(transaction));
    const [known] = await sql.rows(
      'SELECT 1 FROM "site_versions" WHERE "projectId" = $1 AND "version" = $2',
      [projectId, version],
    );
    if (!known) return false;
    await sql.changes(
      'INSERT INTO "sites" ("projectId", "currentVersion", "updatedAt") VALUES ($1, $2, $3) ON CONFLICT ("projectId") DO UPDATE SET "currentVersion" = excluded."currentVersion", "updatedAt" = excluded."updatedAt"',
      [projectId, version, at],
    );
    return true;
  }

  /**
   * A publish's version becomes current unless a newer one is already
   * (two publishes finishing out of turn), in the caller's transaction,
   * which holds the project. True also when it is current already (a
   * retried task places its files again). False when it did not.
   */
  async advanceCurrent(
    transaction: Transaction,
    projectId: string,
    version: number,
    at: string,
  ): Promise<boolean> {
    const changed = await sqlFor(managerOf(transaction)).changes(
      'INSERT INTO "sites" ("projectId", "currentVersion", "updatedAt") VALUES ($1, $2, $3) ON CONFLICT ("projectId") DO UPDATE SET "currentVersion" = excluded."currentVersion", "updatedAt" = excluded."updatedAt" WHERE "sites"."currentVersion" IS NULL OR "sites"."currentVersion" <= excluded."currentVersion"',
      [projectId, version, at],
    );
    return changed > 0;
  }

  /** Takes the site down (no current version); false when none was up. */
  async takeDown(
    transaction: Transaction,
    projectId: string,
    at: string,
  ): Promise<boolean> {
    const changed = await sqlFor(managerOf(transaction)).changes(
      'UPDATE "sites" SET "currentVersion" = NULL, "updatedAt" = $2 WHERE "projectId" = $1 AND "currentVersion" IS NOT NULL',
      [projectId, at],
    );
    return changed > 0;
  }

  /** A file of a version, as the database store keeps it. */
  async file(
    projectId: string,
    version: number,
    path: string,
  ): Promise<StoredSiteFile | undefined> {
    const [row] = await this.db.read((manager) =>
      sqlFor(manager).rows<{
        contentType: string;
        sha256: string;
        bytes: Buffer | Uint8Array;
      }>(
        'SELECT "contentType", "sha256", "bytes" FROM "site_files" WHERE "projectId" = $1 AND "version" = $2 AND "path" = $3',
        [projectId, version, path],
      ),
    );
    if (!row) return undefined;
    const bytes = Buffer.isBuffer(row.bytes)
      ? row.bytes
      : Buffer.from(row.bytes);
    return { contentType: row.contentType, sha256: row.sha256, bytes };
  }
}
