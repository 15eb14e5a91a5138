import { SiteStore } from './site-store';

/**
 * SITES_STORE=database: the files are rows of site_files, written with
 * their version, and the sites listener serves them; which version is
 * current is read from `sites` at request time, so there is nothing to
 * place or remove here.
 */
export class DatabaseSiteStore extends SiteStore {
  readonly kind = 'database';
  readonly bytesInDatabase = true;

  constructor(private readonly baseUrl: string) {
    super();
  }

  urlOf(projectId: string): string {
    return `${this.baseUrl}/${projectId}/`;
  }

  versionUrlOf(projectId: string, version: number): string {
    return `${this.baseUrl}/${projectId}/v${version}/`;
  }

  putVersion(): Promise<void> {
    return Promise.resolve();
  }

  showCurrent(): Promise<void> {
    return Promise.resolve();
  }

  hide(): Promise<void> {
    return Promise.resolve();
  }
}
