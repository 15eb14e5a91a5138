/**
 * The live-change figures of a service's /metrics (Prometheus text), and
 * what changed between two scrapes: the delivery lag histogram
 * (commit -> read by the instance's feed, measured inside the server).
 */

export interface EventMetricsScrape {
  streamsOpen: number;
  eventsSent: number;
  /** Cumulative counts per bucket upper bound (seconds), +Inf last. */
  lagBuckets: Map<number, number>;
  lagSum: number;
  lagCount: number;
}

export interface LagWindow {
  count: number;
  meanMs: number;
  /** Upper bound of the bucket that holds the 99th percentile. */
  p99AtMostMs: number;
  /** Upper bound of the highest bucket with an observation. */
  maxAtMostMs: number;
}

function value(text: string, name: string): number {
  const found = new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text);
  return found ? Number(found[1]) : 0;
}

export async function scrapeEventMetrics(
  baseUrl: string,
): Promise<EventMetricsScrape> {
  const response = await fetch(`${baseUrl}/metrics`);
  const text = await response.text();
  const lagBuckets = new Map<number, number>();
  for (const [, le, count] of text.matchAll(
    /^event_delivery_lag_seconds_bucket\{le="([^"]+)"\} (\d+)$/gm,
  )) {
    lagBuckets.set(le === '+Inf' ? Infinity : Number(le), Number(count));
  }
  return {
    streamsOpen: value(text, 'event_streams_open'),
    eventsSent: value(text, 'event_stream_events_sent_total'),
    lagBuckets,
    lagSum: value(text, 'event_delivery_lag_seconds_sum'),
    lagCount: value(text, 'event_delivery_lag_seconds_count'),
  };
}

export function lagBetween(
  before: EventMetricsScrape,
  after: EventMetricsScrape,
): LagWindow {
  const count = after.lagCount - before.lagCount;
  const bounds = [...after.lagBuckets.keys()].sort((a, b) => a - b);
  const within = (le: number) =>
    (after.lagBuckets.get(le) ?? 0) - (before.lagBuckets.get(le) ?? 0);
  const p99 = bounds.find((le) => within(le) >= count * 0.99) ?? Infinity;
  const max = bounds.find((le) => within(le) >= count) ?? Infinity;
  return {
    count,
    meanMs: count > 0 ? ((after.lagSum - before.lagSum) / count) * 1000 : NaN,
    p99AtMostMs: p99 * 1000,
    maxAtMostMs: max * 1000,
  };
}
