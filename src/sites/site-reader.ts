import { Injectable } from '@nestjs/common';
import { SitesRepository, type StoredSiteFile } from './sites.repository';

/**
 * How long a project's current version is remembered: a rollback or a
 * take-down shows on every replica within this (plus a request), well
 * inside the 5 s promised, while a burst of requests for one site costs
 * one small query a second rather than one each.
 */
export const CURRENT_VERSION_TTL_MS = 1000;
/** Projects whose current version is remembered; the map is emptied past it. */
const CURRENT_ENTRIES_MAX = 10_000;
/** Bytes of immutable files kept in memory (least recently used go first). */
const FILE_CACHE_MAX_BYTES = 32 * 1024 * 1024;

interface CurrentEntry {
  version: number | undefined;
  at: number;
}

/**
 * What the sites listener reads: a project's current version (cached for
 * CURRENT_VERSION_TTL_MS) and a version's files (immutable, so cached by
 * version in a bounded LRU).
 */
@Injectable()
export class SiteReader {
  private readonly currents = new Map<string, CurrentEntry>();
  private readonly files = new Map<string, StoredSiteFile>();
  private fileBytes = 0;

  constructor(private readonly sites: SitesRepository) {}

  async currentVersion(
    projectId: string,
    now = Date.now(),
  ): Promise<number | undefined> {
    const known = this.currents.get(projectId);
    if (known && now - known.at < CURRENT_VERSION_TTL_MS) return known.version;
    const version = await this.sites.currentVersion(projectId);
    if (this.currents.size >= CURRENT_ENTRIES_MAX) this.currents.clear();
    this.currents.set(projectId, { version, at: now });
    return version;
  }

  /** A file of a version; undefined when the version has no such file. */
  async file(
    projectId: string,
    version: number,
    path: string,
  ): Promise<StoredSiteFile | undefined> {
    const key = `${projectId}/${version}/${path}`;
    const cached = this.files.get(key);
    if (cached) {
      // Most recently used last: Map keeps insertion order.
      this.files.delete(key);
      this.files.set(key, cached);
      return cached;
    }
    const file = await this.sites.file(projectId, version, path);
    if (file) this.remember(key, file);
    return file;
  }

  private remember(key: string, file: StoredSiteFile): void {
    if (file.bytes.length > FILE_CACHE_MAX_BYTES / 4) return;
    this.files.set(key, file);
    this.fileBytes += file.bytes.length;
    for (const [oldest, value] of this.files) {
      if (this.fileBytes <= FILE_CACHE_MAX_BYTES) break;
      this.files.delete(oldest);
      this.fileBytes -= value.bytes.length;
    }
  }
}
