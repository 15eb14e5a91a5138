/** Small statistics helpers shared by the load generator and the report. */

export function median(values: number[]): number {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return NaN;
  const sorted = [...finite].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? sorted[middle]
    : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Nearest-rank percentile of an ascending-sorted sample. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** Latency summary of raw samples (milliseconds, sub-millisecond precision). */
export function summarize(latenciesMs: number[]) {
  const sorted = Float64Array.from(latenciesMs).sort();
  const sum = latenciesMs.reduce((total, value) => total + value, 0);
  return {
    p50Ms: percentile(sorted, 50),
    p90Ms: percentile(sorted, 90),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.length > 0 ? sorted[sorted.length - 1] : NaN,
    meanMs: sorted.length > 0 ? sum / sorted.length : NaN,
  };
}
