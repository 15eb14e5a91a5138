import pino from 'pino';

/**
 * Lines are written once this many bytes are queued (or by the timer
 * below): one write per forty-odd request lines instead of one per line. A
 * write per line, even asynchronous, cost a GET about a sixth of its CPU
 * (the thread-pool round trip of every write; docs/performance-history.md).
 * sonic-boom wants it under its largest write, 16 KB.
 */
const BUFFER_BYTES = 12 * 1024;
/** The longest a line waits in the buffer when traffic is light. */
const FLUSH_INTERVAL_MS = 250;

/**
 * stdout for every JSON log line of the process, written asynchronously
 * and in batches: a line is queued and written with the lines that came
 * meanwhile, at least every FLUSH_INTERVAL_MS. pino flushes what is queued
 * synchronously when the process exits — process.exit(), an uncaught
 * exception, the end of the event loop — and the shutdown waits for it
 * (flushLogs), so no line is lost on SIGTERM; a SIGKILL loses at most the
 * last FLUSH_INTERVAL_MS of lines. Shared, so start-up, Nest and request
 * lines keep their order.
 */
let destination: SonicBoomStream | undefined;

export function logDestination(): pino.DestinationStream {
  destination ??= pino.destination({
    dest: 1,
    sync: false,
    minLength: BUFFER_BYTES,
    periodicFlush: FLUSH_INTERVAL_MS,
  }) as SonicBoomStream;
  return destination;
}

/** What pino.destination() returns (sonic-boom), as far as used here. */
interface SonicBoomStream extends pino.DestinationStream {
  /** Writes what is queued; calls back once it is written. */
  flush(callback: (error?: Error) => void): void;
}

/** Resolves once every queued line has been written (or writing failed). */
export function flushLogs(): Promise<void> {
  const stream = destination;
  if (!stream) return Promise.resolve();
  // A failed write is nothing the caller could retry: resolve either way.
  return new Promise((resolvePromise) => stream.flush(() => resolvePromise()));
}
