/**
 * Paces replay per client: each client (its user, or its address without
 * authentication) may replay `ratePerSecond` events a second across all its
 * streams, with a burst of one second's worth. A replay past that waits
 * rather than being refused, so a deep resume still completes, but ten
 * streams replaying a large log in a loop cannot take the process from
 * everyone else.
 */
export class ReplayMeter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly ratePerSecond: number) {}

  /**
   * Takes `events` from the client's allowance; answers how long (ms) the
   * caller must wait before sending them (0 when within the allowance).
   */
  take(clientKey: string, events: number, now = Date.now()): number {
    const bucket = this.buckets.get(clientKey) ?? {
      tokens: this.ratePerSecond,
      at: now,
    };
    const refilled = Math.min(
      this.ratePerSecond,
      bucket.tokens + ((now - bucket.at) * this.ratePerSecond) / 1000,
    );
    // Debt is allowed: the wait pays it back before the events are sent.
    bucket.tokens = refilled - events;
    bucket.at = now;
    this.buckets.set(clientKey, bucket);
    if (bucket.tokens >= 0) return 0;
    return Math.ceil((-bucket.tokens * 1000) / this.ratePerSecond);
  }

  /** Drops buckets that are full again (no client keeps one for free). */
  sweep(now = Date.now()): void {
    for (const [key, bucket] of this.buckets) {
      const refilled =
        bucket.tokens + ((now - bucket.at) * this.ratePerSecond) / 1000;
      if (refilled >= this.ratePerSecond) this.buckets.delete(key);
    }
  }
}
