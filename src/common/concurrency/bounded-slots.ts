/**
 * At most `limit` holders per key at once. One more waits, up to `waitMs`,
 * for a holder of the same key to finish, and is refused after that (or at
 * once when `lineLimit` others of its key already wait). Short work that
 * arrives together — a page asking for three lists at once — is then served
 * a moment later instead of refused, while work that holds its slot for
 * long (a list read slowly on purpose) still caps what one key can take.
 */
export class BoundedSlots {
  private readonly held = new Map<string, number>();
  private readonly lines = new Map<string, Array<() => void>>();

  constructor(
    private readonly limit: number,
    private readonly waitMs: number,
    private readonly lineLimit = 32,
  ) {}

  /** Holders of `key` now. */
  holding(key: string): number {
    return this.held.get(key) ?? 0;
  }

  /**
   * Resolves with the slot's release function (safe to call more than
   * once); rejects with `refusal()` when no slot came within `waitMs`.
   */
  async take(key: string, refusal: () => Error): Promise<() => void> {
    const held = this.holding(key);
    if (held < this.limit) {
      this.held.set(key, held + 1);
      return this.releaser(key);
    }
    const line = this.lines.get(key) ?? [];
    if (this.waitMs <= 0 || line.length >= this.lineLimit) throw refusal();
    this.lines.set(key, line);
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = line.indexOf(grant);
        if (index >= 0) line.splice(index, 1);
        if (line.length === 0 && this.lines.get(key) === line) {
          this.lines.delete(key);
        }
        reject(refusal());
      }, this.waitMs);
      line.push(grant);
    });
    return this.releaser(key);
  }

  private releaser(key: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const line = this.lines.get(key);
      const next = line?.shift();
      if (line?.length === 0) this.lines.delete(key);
      // The slot passes straight to the next in line: the count stays.
      if (next) return next();
      const left = this.holding(key) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }
}
