import type { StoredRendition } from './asset-renditions.repository';

/**
 * The renditions read or made last, up to a byte budget, and the reads in
 * progress: requests for one rendition at about the same time share one
 * copy of its bytes instead of each reading its own from the database
 * (200 requests for a 1024-pixel rendition held 200 copies). Renditions
 * never change, and a deleted asset is refused before this is asked.
 */
export class RecentRenditions {
  private readonly kept = new Map<string, StoredRendition>();
  private readonly reading = new Map<string, Promise<StoredRendition | null>>();
  private keptBytes = 0;

  constructor(private readonly budgetBytes: number) {}

  /** The rendition `key`: kept, being read, or read now with `read`. */
  async get(
    key: string,
    read: () => Promise<StoredRendition | null>,
  ): Promise<StoredRendition | null> {
    const kept = this.kept.get(key);
    if (kept) {
      // Most recently used last: the first entry is the one to evict.
      this.kept.delete(key);
      this.kept.set(key, kept);
      return kept;
    }
    let pending = this.reading.get(key);
    if (!pending) {
      pending = read().finally(() => this.reading.delete(key));
      this.reading.set(key, pending);
    }
    const found = await pending;
    if (found) this.keep(key, found);
    return found;
  }

  /** Keeps `rendition` as the most recently used, evicting the oldest. */
  keep(key: string, rendition: StoredRendition): void {
    if (rendition.bytes.length > this.budgetBytes || this.kept.has(key)) {
      return;
    }
    this.kept.set(key, rendition);
    this.keptBytes += rendition.bytes.length;
    for (const [oldest, entry] of this.kept) {
      if (this.keptBytes <= this.budgetBytes) break;
      this.kept.delete(oldest);
      this.keptBytes -= entry.bytes.length;
    }
  }
}
