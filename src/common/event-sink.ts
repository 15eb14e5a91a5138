/**
 * Where a live stream's text goes: what the streams need of the
 * connection, and nothing of HTTP. Over HTTP it is a text/event-stream
 * response (common/http/sse-responder.ts); a test can hand its own.
 */
export interface EventSink {
  /** Starts the stream (status and headers go out), then writes `first`. */
  begin(first: string): void;
  /** The connection was closed (destroy, reset, or by the client). */
  readonly closed: boolean;
  /** The client's connection is gone (it may not be `closed` yet). */
  readonly clientGone: boolean;
  write(text: string): void;
  /** Bytes written that the client has not taken yet. */
  readonly unsentBytes: number;
  /** The buffer is full: the next write should wait for the client. */
  readonly needsDrain: boolean;
  /** Calls `listener` once the client took the buffer, or left; the result undoes it. */
  onDrainOrClose(listener: () => void): () => void;
  /** Calls `listener` when the connection closes, for whatever reason. */
  onClose(listener: () => void): void;
  /** Ends the stream cleanly, after what was written. */
  end(): void;
  /** Cuts the connection at once, dropping what the client has not read. */
  reset(): void;
  /** Closes the connection (after headers, a client sees a dropped stream). */
  destroy(): void;
}
