/**
 * Messages between the orchestrator and the load generator (bench/load.ts),
 * which runs in its own process on the load core and talks over Node's IPC
 * channel. Every job is two-phase: warm up, report `warmed`, wait for `go`
 * (the orchestrator reads the server's CPU time in between), measure,
 * report `result`.
 */

/** What each request of a scenario looks like; random parts per request. */
export type RequestPlan =
  /** The references: one fixed request, the cheapest for the generator. */
  | { kind: 'fixed-get'; path: string }
  /**
   * One fixed GET whose answer is megabytes (an asset's bytes): driven by
   * node:http instead of autocannon, see load.ts.
   */
  | { kind: 'download'; path: string }
  | { kind: 'get-by-id'; idsFile: string; authorization?: string }
  | { kind: 'patch'; idsFile: string }
  /**
   * keys: none, a new Idempotency-Key per request, or one key and body
   * sent again and again (every answer after the first is a replay).
   */
  | { kind: 'create'; users: number; keys?: 'unique' | 'replay' }
  | { kind: 'list-user'; users: number }
  | { kind: 'list-all' }
  | { kind: 'logo' }
  /** POST /api/projects/{id}/logos, a project of `projectIds` drawn each time. */
  | { kind: 'keep-logo'; projectIds: string[] }
  /**
   * The replicas' workload: per request, 80% GET by id, 15% list by
   * userId, 5% create.
   */
  | { kind: 'mixed'; idsFile: string; users: number };

export interface TimedJob {
  type: 'timed';
  baseUrl: string;
  plan: RequestPlan;
  connections: number;
  warmupS: number;
  durationS: number;
  /**
   * Requests per second over all connections (autocannon's overallRate):
   * latency at a fixed rate instead of under saturation. Unset: as fast as
   * the server answers.
   */
  rate?: number;
  /**
   * More servers sharing the load (replicas): the connections and the rate
   * are split evenly between baseUrl and these.
   */
  moreBaseUrls?: string[];
}

export interface BurstJob {
  type: 'burst';
  baseUrl: string;
  requests: number;
  warmupRequests: number;
}

export type Job = TimedJob | BurstJob;

export interface LatencySummary {
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

export interface TimedResult extends LatencySummary {
  /** Every answered request, whatever its status. */
  completed: number;
  ok: number;
  non2xx: number;
  /** Socket errors and timeouts (autocannon counts timeouts as errors). */
  socketErrors: number;
  timeouts: number;
  seconds: number;
  /** 2xx answers per second: a server that fails fast does not score. */
  perSecond: number;
  statusCodes: Record<string, number>;
}

export interface BurstResult extends LatencySummary {
  requests: number;
  ok: number;
  non2xx: number;
  socketErrors: number;
  /** First request sent to last answer received. */
  elapsedMs: number;
  warmup: { elapsedMs: number; ok: number };
}

export type ToLoad = { type: 'job'; job: Job } | { type: 'go' };

export type FromLoad =
  | { type: 'ready' }
  | { type: 'warmed' }
  | { type: 'result'; result: TimedResult | BurstResult }
  | { type: 'error'; message: string };
