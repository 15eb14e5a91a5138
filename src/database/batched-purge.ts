import type { Logger } from '@nestjs/common';

/** How often expired rows are looked for. */
const PURGE_INTERVAL_MS = 60_000;

/**
 * Deletes expired rows in the background, a batch at a time: each batch is
 * its own short statement (on SQLite, its own turn of the write queue), so
 * no purge is a visible pause for requests. A failed run is logged and the
 * next one tries again; an unavailable database is reported by the
 * requests and the readiness probe.
 */
export class BatchedPurge {
  private timer?: NodeJS.Timeout;

  /**
   * @param what what is purged, for the log line of a failed run
   * @param deleteBatch deletes at most `limit` rows expired at `now`;
   *   returns how many it deleted
   */
  constructor(
    private readonly what: string,
    private readonly batchSize: number,
    private readonly deleteBatch: (
      now: number,
      limit: number,
    ) => Promise<number>,
    private readonly logger: Logger,
    private readonly intervalMs = PURGE_INTERVAL_MS,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.run(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One run: batches until one deletes fewer than a batch; the total. */
  async run(now = Date.now()): Promise<number> {
    let total = 0;
    try {
      for (;;) {
        const deleted = await this.deleteBatch(now, this.batchSize);
        total += deleted;
        if (deleted < this.batchSize) return total;
      }
    } catch (error) {
      this.logger.warn(
        `Purging ${this.what} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return total;
    }
  }
}
