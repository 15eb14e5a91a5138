import pino from 'pino';

/**
 * stdout for every JSON log line of the process, written asynchronously: a
 * line is queued and written with the lines that came meanwhile, instead of
 * one blocking write per line (a synchronous write per request was a
 * measurable share of a GET's CPU). pino flushes what is queued when the
 * process exits — process.exit(), an uncaught exception, the end of the
 * event loop — and the shutdown waits for it (flushLogs), so no line is lost
 * on SIGTERM. Shared, so start-up, Nest and request lines keep their order.
 */
let destination: pino.DestinationStream | undefined;

export function logDestination(): pino.DestinationStream {
  destination ??= pino.destination({ dest: 1, sync: false });
  return destination;
}

/** What pino.destination() returns (sonic-boom), as far as used here. */
interface SonicBoomStream extends pino.DestinationStream {
  /** True while an asynchronous write is in flight. */
  _writing: boolean;
  once(event: 'drain' | 'error', listener: () => void): unknown;
}

/**
 * Resolves once every queued line has been written: sonic-boom writes what
 * queued up meanwhile as soon as a write completes, and emits `drain` when
 * nothing is left.
 */
export function flushLogs(): Promise<void> {
  const stream = destination as SonicBoomStream | undefined;
  if (!stream?._writing) return Promise.resolve();
  return new Promise((resolvePromise) => {
    stream.once('drain', resolvePromise);
    // A failed write is nothing the caller could retry; stop waiting.
    stream.once('error', resolvePromise);
  });
}
