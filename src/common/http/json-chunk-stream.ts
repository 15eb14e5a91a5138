import { Readable } from 'node:stream';

/** A JSON body produced piece by piece, e.g. from a database cursor. */
export interface ChunkSource {
  /** The next piece of the body, or undefined after the last. */
  next(): Promise<string | undefined>;
  /** Releases what the source holds; called once the body ends or is cut off. */
  close(): Promise<void>;
}

/** Raised when the client has read nothing for the allowed time. */
export class StalledClientError extends Error {
  constructor(idleMs: number) {
    super(`the client read nothing for ${idleMs} ms`);
    this.name = 'StalledClientError';
  }
}

/** Raised when a list has run for longer than it may, however fast it is read. */
export class ListTooLongError extends Error {
  constructor(maxMs: number) {
    super(`the list ran for longer than ${maxMs} ms`);
    this.name = 'ListTooLongError';
  }
}

/**
 * A ChunkSource as a byte stream. The source is asked for its next piece
 * only when the consumer wants more (backpressure: a slow client slows the
 * reading, nothing piles up beyond one piece), and destroying the stream
 * (the client went away, or a failure) closes the source.
 */
export class JsonChunkStream extends Readable {
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly lifeTimer: NodeJS.Timeout | undefined;

  /**
   * `idleMs`: the longest the consumer may read nothing; `maxMs`: the
   * longest the whole body may take (a client reading a little now and
   * then restarts the idle timer, never this one).
   */
  constructor(
    private readonly source: ChunkSource,
    private readonly idleMs: number,
    maxMs?: number,
  ) {
    // Below one piece: each read asks for exactly one more.
    super({ highWaterMark: 16 * 1024 });
    if (maxMs !== undefined) {
      this.lifeTimer = setTimeout(
        () => this.destroy(new ListTooLongError(maxMs)),
        maxMs,
      );
    }
  }

  override _read(): void {
    clearTimeout(this.idleTimer);
    this.source.next().then(
      (piece) => {
        if (this.destroyed) return;
        if (piece === undefined) {
          clearTimeout(this.lifeTimer);
          this.push(null);
          return;
        }
        // Armed until the consumer asks for more.
        this.idleTimer = setTimeout(
          () => this.destroy(new StalledClientError(this.idleMs)),
          this.idleMs,
        );
        this.push(piece);
      },
      (error: Error) => this.destroy(error),
    );
  }

  override _destroy(
    error: Error | null,
    callback: (error?: Error | null) => void,
  ): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.lifeTimer);
    this.source.close().then(
      () => callback(error),
      (closeError: Error) => callback(error ?? closeError),
    );
  }
}
