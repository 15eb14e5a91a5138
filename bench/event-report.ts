import type { ServerLag } from './stream-targets';

/**
 * The results of `npm run bench:events` and their Markdown tables: each
 * database's service beside the bare reference, one column each.
 */

/** Target: idle streams grow the server's RSS by at most this per stream. */
export const RSS_TARGET_KB_PER_STREAM = 64;

export interface IdleResult {
  streams: number;
  /** Milliseconds from the first open to the server counting them all. */
  openMs: number;
  rssBeforeMb: number;
  rssOpenMb: number;
  rssPeakMb: number;
  rssClosedMb: number;
  growthMb: number;
  growthPerStreamKb: number;
  /** Server CPU to open one stream (limits, subscribe, first write). */
  openCpuUs: number;
  /**
   * The server did not hold them all: it died (why: its stderr), or,
   * `refused`, it answered 503 past the streams its heap holds. Then
   * `rssOpenMb` is the last RSS read, growth is per stream held, and
   * nothing after it is measured.
   */
  failure?: { reason: string; streamsHeld: number; refused?: boolean };
}

export interface RateResult {
  rate: number;
  streams: number;
  writes: number;
  failedWrites: number;
  /** Events each stream received (all of them, or the run says so). */
  eventsPerStream: number;
  missing: number;
  /** Mean bytes of one event's frame as the clients received it. */
  frameBytes: number;
  serverCpuMs: number;
  cpuUsPerWrite: number;
  serverLag: ServerLag;
  clientLagP50Ms: number;
  clientLagP99Ms: number;
  clientLagMaxMs: number;
  /** The clients' process (the load core) busy, % of the window. */
  clientCpuPercent: number;
  /** Server RSS with the streams open, after the window. */
  rssMb: number;
}

export interface RatePair {
  rate: number;
  withoutStreams: RateResult;
  withStreams: RateResult;
  /** (CPU with streams - without) / events delivered to streams. */
  cpuUsPerDeliveredEvent: number;
}

export interface ReplayResult {
  streams: number;
  eventsPerStream: number;
  rate: number;
  /** Open -> every stream has every event, ms. */
  elapsedMs: number;
  /** The soonest the rate allows past its burst, ms. */
  floorMs: number;
  /** Events fewer than expected, over all streams. */
  missing: number;
  /** From /metrics: events held back, and the waits the server counted. */
  pacedEvents: number;
  pacedSeconds: number;
}

export interface TargetResult {
  /** `sqlite`, `postgres` or `reference`. */
  kind: string;
  idle: IdleResult;
  rates: RatePair[];
  /** The service only. */
  replay?: ReplayResult;
}

export const fmt = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toFixed(digits) : '—';

/** Paced as the rate says: not sooner than its floor (a timer may fire 10 ms early), and whole. */
export const replayPasses = (replay: ReplayResult) =>
  replay.elapsedMs >= replay.floorMs - 10 && replay.missing === 0;

const idlePasses = (idle: IdleResult) =>
  !idle.failure && idle.growthPerStreamKb <= RSS_TARGET_KB_PER_STREAM;

function rows(
  results: TargetResult[],
  measures: Array<[string, (r: TargetResult) => string]>,
): string[] {
  return [
    `| measure | ${results.map((r) => r.kind).join(' | ')} |`,
    `| --- |${results.map(() => ' --- |').join('')}`,
    ...measures.map(
      ([name, cell]) => `| ${name} | ${results.map(cell).join(' | ')} |`,
    ),
  ];
}

function lagCell(lag: ServerLag): string {
  const at = lag.bounded ? '≤ ' : '';
  return `${lag.what}: mean ${fmt(lag.meanMs, 2)} ms, p99 ${at}${fmt(lag.p99Ms, lag.bounded ? 0 : 2)} ms, max ${at}${fmt(lag.maxMs, lag.bounded ? 0 : 2)} ms`;
}

export function idleTable(results: TargetResult[]): string {
  const streams = results[0]?.idle.streams ?? 0;
  return [
    `**${streams} idle streams**`,
    '',
    ...rows(results, [
      [
        `held all ${streams}`,
        (r) =>
          r.idle.failure
            ? `**no**: ${r.idle.failure.refused ? 'refused past' : 'died after'} ${r.idle.failure.streamsHeld} (${r.idle.failure.reason})`
            : 'yes',
      ],
      ['RSS before', (r) => `${fmt(r.idle.rssBeforeMb)} MB`],
      [
        `with ${streams} streams`,
        (r) =>
          r.idle.failure
            ? `— (last read ${fmt(r.idle.rssOpenMb)} MB)`
            : `${fmt(r.idle.rssOpenMb)} MB`,
      ],
      [
        `growth per stream (≤ ${RSS_TARGET_KB_PER_STREAM} KB)`,
        (r) =>
          `**${fmt(r.idle.growthPerStreamKb, 1)} KB** (${fmt(r.idle.growthMb, 1)} MB${r.idle.failure ? ` over ${r.idle.failure.streamsHeld} streams` : ''}) ${idlePasses(r.idle) ? 'pass' : '**FAIL**'}`,
      ],
      ['peak while opening', (r) => `${fmt(r.idle.rssPeakMb)} MB`],
      ['5 s after closing', (r) => `${fmt(r.idle.rssClosedMb)} MB`],
      ['server CPU to open one', (r) => `${fmt(r.idle.openCpuUs)} µs`],
      ['time to open all', (r) => `${fmt(r.idle.openMs / 1000, 1)} s`],
    ]),
  ].join('\n');
}

export function rateTable(results: TargetResult[], rate: number): string {
  const pairOf = (r: TargetResult) =>
    r.rates.find((pair) => pair.rate === rate) as RatePair;
  const streams = pairOf(results[0])?.withStreams.streams ?? 0;
  const w = (r: TargetResult) => pairOf(r).withStreams;
  return [
    `**${rate} events/s to ${streams} streams**`,
    '',
    ...rows(results, [
      [
        'server CPU per write, no streams',
        (r) => `${fmt(pairOf(r).withoutStreams.cpuUsPerWrite)} µs`,
      ],
      [`with ${streams} streams`, (r) => `${fmt(w(r).cpuUsPerWrite)} µs`],
      [
        'CPU per event delivered to one stream',
        (r) => `**${fmt(pairOf(r).cpuUsPerDeliveredEvent, 1)} µs**`,
      ],
      ['server delay', (r) => lagCell(w(r).serverLag)],
      [
        'lag commit → client: p50, p99, max',
        (r) =>
          `${fmt(w(r).clientLagP50Ms)}, **${fmt(w(r).clientLagP99Ms)}**, ${fmt(w(r).clientLagMaxMs)} ms`,
      ],
      [
        'events per stream, missing, failed writes',
        (r) => `${w(r).eventsPerStream}, ${w(r).missing}, ${w(r).failedWrites}`,
      ],
      ['bytes per event frame', (r) => fmt(w(r).frameBytes)],
      ['server RSS with the streams', (r) => `${fmt(w(r).rssMb)} MB`],
      [
        'client process CPU (load core)',
        (r) => `${fmt(w(r).clientCpuPercent)}%`,
      ],
    ]),
  ].join('\n');
}

export function replayTable(results: TargetResult[]): string {
  const lines = [
    '| database | paced replay | open → all delivered | held back (server) | missing |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    const replay = r.replay;
    if (!replay) continue;
    lines.push(
      `| ${r.kind} | ${replay.streams} streams x ${replay.eventsPerStream} events at ${replay.rate}/s (≥ ${fmt(replay.floorMs)} ms) | ${fmt(replay.elapsedMs)} ms ${replayPasses(replay) ? 'pass' : '**FAIL**'} | ${replay.pacedEvents} events, ${fmt(replay.pacedSeconds, 2)} s | ${replay.missing} |`,
    );
  }
  return lines.join('\n');
}
