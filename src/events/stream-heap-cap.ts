import { getHeapStatistics } from 'node:v8';

/**
 * Heap an open stream holds: its Express and Nest request, response and
 * socket stay alive while it is open (11–12 KB measured with the pod's
 * heap flags; rounded up).
 */
export const STREAM_HEAP_BYTES = 16 * 1024;
/** Heap left for everything else the process does beside its streams. */
export const HEAP_RESERVE_BYTES = 80 * 1024 * 1024;

/**
 * The most streams this process's heap holds beside its other work: past
 * it V8 runs out of heap and the process dies with every stream (with the
 * pod's flags, a 176 MB limit, at about 7,100 streams). Every heap holds
 * at least 100.
 */
export function streamsTheHeapHolds(
  heapLimitBytes = getHeapStatistics().heap_size_limit,
): number {
  return Math.max(
    100,
    Math.floor((heapLimitBytes - HEAP_RESERVE_BYTES) / STREAM_HEAP_BYTES),
  );
}

/** EVENTS_INSTANCE_LIMIT, unless the heap holds fewer streams. */
export function instanceStreamLimit(
  configured: number,
  heapLimitBytes?: number,
): number {
  return Math.min(configured, streamsTheHeapHolds(heapLimitBytes));
}
