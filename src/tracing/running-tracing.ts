import type { TracingHandle } from './tracing-sdk';

/**
 * The running SDK, set once by start-tracing.ts. Its own file, free of
 * imports, so that start-tracing.ts loads nothing before the SDK does.
 */
let running: TracingHandle | undefined;

export function setRunningTracing(handle: TracingHandle): void {
  running = handle;
}

/** Undefined when tracing is off (and in tests, which flush their own). */
export function runningTracing(): TracingHandle | undefined {
  return running;
}
