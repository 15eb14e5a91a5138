import type { SiteFile, SiteFileEntry } from '../site-files';

/**
 * Where a published site's files are served from: the sites listener
 * reading site_files (SITES_STORE=database), or the asset bucket behind
 * a website endpoint or CDN (SITES_STORE=s3). The rows (versions, which
 * one is current) are always in the database; a store only places bytes.
 */
export abstract class SiteStore {
  abstract readonly kind: 'database' | 's3';
  /** The version's bytes go into site_files, in its row's transaction. */
  abstract readonly bytesInDatabase: boolean;

  /** The address of the project's current site, ending with `/`. */
  abstract urlOf(projectId: string): string;

  /** The address of one version (its files never change), ending with `/`. */
  abstract versionUrlOf(projectId: string, version: number): string;

  /** After its row: a version's files, where that version is served. */
  abstract putVersion(
    projectId: string,
    version: number,
    files: readonly SiteFile[],
  ): Promise<void>;

  /** After a version became current (publish or rollback). */
  abstract showCurrent(
    projectId: string,
    version: number,
    files: readonly SiteFileEntry[],
  ): Promise<void>;

  /** After the site was taken down: its current address answers 404. */
  abstract hide(projectId: string): Promise<void>;
}
