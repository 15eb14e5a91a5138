import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'prettier';
import type { BackendKind } from './databases';
import type { BurstSample, TimedSample } from './measure';
import { MB } from './proc-stats';
import type { ReplicaSample } from './replicas';
import type { ScenarioName } from './scenarios';
import { PACED_SHARE, SCENARIOS } from './scenarios';
import type { ColdStart } from './stage';
import {
  BURST,
  MAIN_DATA,
  RESULTS_DIR,
  type Settings,
  SMALL_DATA,
} from './settings';
import { median } from './stats';

/**
 * Turns the samples of every round into medians, checks them against the
 * targets, prints one table per database and writes the same as
 * JSON to bench/results/.
 */

export interface SqliteRefSample {
  transactions: number;
  seconds: number;
  perSecond: number;
  cpuUsPerOp: number;
  rssBytes: number;
}

export interface References {
  http: TimedSample[];
  /** node:http serving the kept logo's PNG (with asset-content only). */
  httpAsset: TimedSample[];
  /**
   * A minimal NestJS app answering get by id with the same three SQLite
   * reads on prepared statements (SQLite runs only): what the framework
   * and the reads cost before anything of the service's own.
   */
  minimalNest: TimedSample[];
  /** The same minimal app's constant-body route: the framework alone. */
  minimalNestConstant: TimedSample[];
  /**
   * The same minimal app answering each project's answer kept whole in one
   * row (stored-answers.ts): what get by id costs with one read per request.
   */
  minimalNestStored: TimedSample[];
  sqliteInserts: SqliteRefSample[];
}

export interface BackendRun {
  kind: BackendKind;
  scenarios: Record<ScenarioName, TimedSample[]>;
  bursts: BurstSample[];
  coldStarts: ColdStart[];
  /** The mixed workload on one service process and on two (PostgreSQL). */
  replicas: { one: ReplicaSample[]; two: ReplicaSample[] };
  /** RSS of the list-all server before its first window and after each. */
  listAllRss: { beforeFirstBytes: number; afterEachBytes: number[] };
}

export interface RunInfo {
  settings: Settings;
  startedAt: Date;
  finishedAt: Date;
  code: { commit: string; uncommittedChanges: boolean };
  machine: Record<string, unknown>;
}

/** p99 limits of the fixed-rate runs. */
const PACED_P99_LIMITS_MS: Array<[ScenarioName, number]> = [
  ['get-by-id-paced', 5],
  ['list-by-user-paced', 15],
  ['create-paced', 20],
];

/** Allowed RSS growth of the list-all server after its first window. */
const LIST_ALL_STEADY_GROWTH_MB = 25;

const medianOf = <T>(samples: T[], pick: (sample: T) => number) =>
  median(samples.map(pick));
const sumOf = <T>(samples: T[], pick: (sample: T) => number) =>
  samples.reduce((total, sample) => total + pick(sample), 0);

function timedMedian(samples: TimedSample[]) {
  const postgres = samples
    .map((s) => s.postgresCpuUsPerRequest)
    .filter((value): value is number => value !== undefined);
  return {
    targetRate: medianOf(samples, (s) => s.targetRate ?? NaN),
    postgresCpuUsPerRequest: median(postgres),
    perSecond: medianOf(samples, (s) => s.perSecond),
    p50Ms: medianOf(samples, (s) => s.p50Ms),
    p99Ms: medianOf(samples, (s) => s.p99Ms),
    errors: sumOf(samples, (s) => s.errors),
    cpuUsPerRequest: medianOf(samples, (s) => s.cpuUsPerRequest),
    serverCoreBusy: medianOf(samples, (s) => s.serverCoreBusy),
    rssMb: medianOf(samples, (s) => s.rssBytes) / MB,
    peakRssMb: Math.max(...samples.map((s) => s.peakRssBytes)) / MB,
  };
}
type TimedMedian = ReturnType<typeof timedMedian>;

function burstMedian(samples: BurstSample[]) {
  return {
    elapsedMs: medianOf(samples, (s) => s.elapsedMs),
    p50Ms: medianOf(samples, (s) => s.p50Ms),
    p99Ms: medianOf(samples, (s) => s.p99Ms),
    errors: sumOf(samples, (s) => s.errors),
    cpuUsPerRequest: medianOf(samples, (s) => s.cpuUsPerRequest),
    rssBeforeMb: medianOf(samples, (s) => s.rssBeforeBytes) / MB,
    peakRssMb: medianOf(samples, (s) => s.peakRssBytes) / MB,
    rssGrowthMb: medianOf(samples, (s) => s.rssGrowthBytes) / MB,
    listenOverflows: sumOf(samples, (s) => s.listenOverflows),
  };
}

function replicaMedian(samples: ReplicaSample[]) {
  const total = (sample: ReplicaSample) =>
    sample.serviceCpuUs.reduce((sum, us) => sum + us, 0);
  const processes = samples[0]?.processes ?? 0;
  return {
    processes,
    perSecond: medianOf(samples, (s) => s.perSecond),
    p50Ms: medianOf(samples, (s) => s.p50Ms),
    p99Ms: medianOf(samples, (s) => s.p99Ms),
    errors: sumOf(samples, (s) => s.errors),
    serviceCpuUsPerRequest: medianOf(samples, (s) => total(s) / s.requests),
    postgresCpuUsPerRequest: medianOf(
      samples,
      (s) => s.postgresCpuUs / s.requests,
    ),
    loadCpuUsPerRequest: medianOf(samples, (s) => s.loadCpuUs / s.requests),
    /** Cores kept busy over the window, per service process. */
    serviceCores: Array.from({ length: processes }, (_, i) =>
      medianOf(samples, (s) => s.serviceCpuUs[i] / (s.seconds * 1e6)),
    ),
    postgresCores: medianOf(
      samples,
      (s) => s.postgresCpuUs / (s.seconds * 1e6),
    ),
    loadCores: medianOf(samples, (s) => s.loadCpuUs / (s.seconds * 1e6)),
  };
}
type ReplicaMedian = ReturnType<typeof replicaMedian>;

function referenceMedians(refs: References) {
  return {
    http: timedMedian(refs.http),
    httpAsset: timedMedian(refs.httpAsset),
    minimalNest: timedMedian(refs.minimalNest),
    minimalNestConstant: timedMedian(refs.minimalNestConstant),
    minimalNestStored: timedMedian(refs.minimalNestStored ?? []),
    sqliteInserts: {
      perSecond: medianOf(refs.sqliteInserts, (s) => s.perSecond),
      cpuUsPerOp: medianOf(refs.sqliteInserts, (s) => s.cpuUsPerOp),
      rssMb: medianOf(refs.sqliteInserts, (s) => s.rssBytes) / MB,
    },
  };
}

function backendMedians(run: BackendRun) {
  const scenarios = Object.fromEntries(
    SCENARIOS.map((s) => [s.name, timedMedian(run.scenarios[s.name])]),
  ) as Record<ScenarioName, TimedMedian>;
  const after = run.listAllRss.afterEachBytes;
  return {
    scenarios,
    burst: burstMedian(run.bursts),
    replicas: {
      one: replicaMedian(run.replicas.one),
      two: replicaMedian(run.replicas.two),
    },
    coldStartMs: medianOf(run.coldStarts, (c) => c.coldStartMs),
    idleRssMb: medianOf(run.coldStarts, (c) => c.idleRssBytes) / MB,
    listAllMemory: {
      beforeFirstMb: run.listAllRss.beforeFirstBytes / MB,
      afterFirstMb: after[0] / MB,
      afterLastMb: after[after.length - 1] / MB,
      /** Growth after the first window, where a leak would show. */
      steadyGrowthMb: (after[after.length - 1] - after[0]) / MB,
      totalGrowthMb:
        (after[after.length - 1] - run.listAllRss.beforeFirstBytes) / MB,
    },
  };
}
type BackendMedians = ReturnType<typeof backendMedians>;

export interface TargetCheck {
  name: string;
  measured: string;
  target: string;
  pass: boolean;
}

// ---- formatting -----------------------------------------------------------

const num = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      })
    : '—';
const ms = (value: number) => num(value, value < 10 ? 2 : 1);
const verdict = (pass: boolean) => (pass ? 'pass' : '**FAIL**');

interface Row {
  label: string;
  cells: string[];
  /** Ratio to the reference, or the value the target is about. */
  measured: string;
  target: string;
  result: string;
}

function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => r[i].length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
  ].join('\n');
}

const HEADER = [
  'scenario',
  'req/s',
  'p50 ms',
  'p99 ms',
  'errors',
  'server CPU µs/req',
  'RSS MB',
  'measured',
  'target',
  'result',
];

const timedCells = (m: TimedMedian) => [
  num(m.perSecond),
  ms(m.p50Ms),
  ms(m.p99Ms),
  num(m.errors),
  num(m.cpuUsPerRequest),
  num(m.rssMb, 1),
];

// ---- targets --------------------------------------------------------------

function checkTargets(
  m: BackendMedians,
  refs: ReturnType<typeof referenceMedians>,
): Map<string, TargetCheck> {
  const s = m.scenarios;
  const checks = new Map<string, TargetCheck>();
  // A scenario left out by BENCH_SCENARIOS has NaN medians: no verdict.
  const add = (key: string, check: TargetCheck, ran: number) => {
    if (Number.isFinite(ran)) checks.set(key, check);
  };

  const getRatio = s['get-by-id'].perSecond / refs.http.perSecond;
  // The same comparison in server CPU per request: what one core could
  // serve, whatever the load generator managed to send.
  const getCpuRatio =
    refs.http.cpuUsPerRequest / s['get-by-id'].cpuUsPerRequest;
  add(
    'get-by-id',
    {
      name: 'get by id ≥ 0.15 × bare node:http',
      measured: `${num(getRatio, 3)} × node:http (CPU/req: ${num(getCpuRatio, 3)} ×)`,
      target: '≥ 0.15 × node:http',
      pass: getRatio >= 0.15,
    },
    s['get-by-id'].perSecond,
  );
  const oidcRatio = s['get-by-id-oidc'].perSecond / s['get-by-id'].perSecond;
  add(
    'get-by-id-oidc',
    {
      name: 'get by id with AUTH_MODE=oidc ≥ 0.9 × without',
      measured: `${num(oidcRatio, 3)} × get by id`,
      target: '≥ 0.9 × get by id',
      pass: oidcRatio >= 0.9 && s['get-by-id-oidc'].errors === 0,
    },
    s['get-by-id-oidc'].perSecond,
  );
  const createRatio = s.create.perSecond / refs.sqliteInserts.perSecond;
  add(
    'create',
    {
      name: 'create ≥ 0.25 × raw 12-row transactions, zero errors',
      measured: `${num(createRatio, 3)} × raw tx`,
      target: '≥ 0.25 × raw tx, 0 errors',
      pass: createRatio >= 0.25 && s.create.errors === 0,
    },
    s.create.perSecond,
  );
  const keyedRatio = s['create-keyed'].perSecond / s.create.perSecond;
  add(
    'create-keyed',
    {
      name: 'create with an Idempotency-Key ≥ 0.85 × create without',
      measured: `${num(keyedRatio, 3)} × create`,
      target: '≥ 0.85 × create',
      pass: keyedRatio >= 0.85 && s['create-keyed'].errors === 0,
    },
    s['create-keyed'].perSecond,
  );
  const replayRatio = s['create-replay'].perSecond / s.create.perSecond;
  add(
    'create-replay',
    {
      name: 'a replayed create is faster than a create',
      measured: `${num(replayRatio, 2)} × create`,
      target: '> 1 × create',
      pass: replayRatio > 1 && s['create-replay'].errors === 0,
    },
    s['create-replay'].perSecond,
  );
  // Latency at a fixed rate (half the saturated maximum); the saturated
  // runs above are throughput.
  for (const [key, limitMs] of PACED_P99_LIMITS_MS) {
    const paced = s[key];
    add(
      key,
      {
        name: `${key}: p99 ≤ ${limitMs} ms at ${PACED_SHARE * 100}% of the maximum rate`,
        measured: `p99 ${ms(paced.p99Ms)} ms at ${num(paced.targetRate)} req/s asked`,
        target: `p99 ≤ ${limitMs} ms`,
        pass: paced.p99Ms <= limitMs && paced.errors === 0,
      },
      paced.perSecond,
    );
  }
  add(
    'list-all',
    {
      name: 'list all (1,000) p99 ≤ 250 ms',
      measured: `p99 ${ms(s['list-all'].p99Ms)} ms`,
      target: 'p99 ≤ 250 ms',
      pass: s['list-all'].p99Ms <= 250,
    },
    s['list-all'].perSecond,
  );
  add(
    'list-all-memory',
    {
      name: `list all: RSS does not grow with repeated calls (≤ ${LIST_ALL_STEADY_GROWTH_MB} MB after the first round)`,
      measured: `${m.listAllMemory.steadyGrowthMb >= 0 ? '+' : ''}${num(m.listAllMemory.steadyGrowthMb, 1)} MB`,
      target: `≤ +${LIST_ALL_STEADY_GROWTH_MB} MB after round 1`,
      pass: m.listAllMemory.steadyGrowthMb <= LIST_ALL_STEADY_GROWTH_MB,
    },
    m.listAllMemory.steadyGrowthMb,
  );
  const logoRatio = s.logo.p50Ms / s['get-by-id'].p50Ms;
  add(
    'logo',
    {
      name: 'logo (0 ms upstream) p50 ≤ 1.5 × get-by-id p50',
      measured: `p50 ${num(logoRatio, 2)} × get`,
      target: 'p50 ≤ 1.5 × get p50',
      pass: logoRatio <= 1.5,
    },
    logoRatio,
  );
  add(
    'burst',
    {
      name: `burst of ${BURST.requests.toLocaleString('en-US')} completes in ≤ 2 s, RSS growth ≤ 150 MB`,
      measured: `${num(m.burst.elapsedMs / 1000, 2)} s, +${num(m.burst.rssGrowthMb, 1)} MB`,
      target: '≤ 2 s, ≤ +150 MB, 0 errors',
      pass:
        m.burst.elapsedMs <= 2000 &&
        m.burst.rssGrowthMb <= 150 &&
        m.burst.errors === 0,
    },
    m.burst.elapsedMs,
  );
  add(
    'cold-start',
    {
      name: 'cold start ≤ 800 ms',
      measured: `${num(m.coldStartMs)} ms`,
      target: '≤ 800 ms',
      pass: m.coldStartMs <= 800,
    },
    m.coldStartMs,
  );
  add(
    'idle-rss',
    {
      name: 'idle RSS ≤ 150 MB',
      measured: `${num(m.idleRssMb, 1)} MB`,
      target: '≤ 150 MB',
      pass: m.idleRssMb <= 150,
    },
    m.idleRssMb,
  );
  return checks;
}

/**
 * Figures without a target, shown in the "measured" column: keep-logo
 * beside the logo route, and the asset content route beside node:http
 * serving the same bytes.
 */
function assetFigures(
  m: BackendMedians,
  refs: ReturnType<typeof referenceMedians>,
): Map<string, string> {
  const s = m.scenarios;
  const figures = new Map<string, string>();
  const keep = s['keep-logo'];
  if (Number.isFinite(keep.perSecond)) {
    figures.set(
      'keep-logo',
      `CPU/req ${num(keep.cpuUsPerRequest / s.logo.cpuUsPerRequest, 2)} × logo, ` +
        `req/s ${num(keep.perSecond / s.logo.perSecond, 2)} ×, p50 ${num(keep.p50Ms / s.logo.p50Ms, 2)} ×; peak RSS ${num(keep.peakRssMb, 1)} MB`,
    );
  }
  const content = s['asset-content'];
  if (Number.isFinite(content.perSecond)) {
    const ref = refs.httpAsset;
    figures.set(
      'asset-content',
      `${num(content.perSecond / ref.perSecond, 3)} × node:http req/s (CPU/req: ${num(ref.cpuUsPerRequest / content.cpuUsPerRequest, 3)} ×), ` +
        `p50 ${num(content.p50Ms / ref.p50Ms, 2)} ×, p99 ${num(content.p99Ms / ref.p99Ms, 2)} ×; peak RSS ${num(content.peakRssMb, 1)} MB`,
    );
  }
  return figures;
}

const READ_SCENARIOS: ScenarioName[] = [
  'get-by-id',
  'list-by-user',
  'list-all',
];

/** Allowed CPU per read request on PostgreSQL, as a multiple of SQLite's. */
const POSTGRES_CPU_LIMIT = 1.5;

/**
 * "PostgreSQL reads within 1.5 × SQLite per-request CPU": the service
 * process's CPU per request on each read scenario. SQLite's work is inside
 * that process; PostgreSQL's own CPU is shown beside it (service +
 * database), and req/s and p99 as before.
 */
function compareWithSqlite(pg: BackendMedians, sqlite: BackendMedians) {
  const ran = (name: ScenarioName) =>
    Number.isFinite(pg.scenarios[name].perSecond);
  return READ_SCENARIOS.filter(ran).map((name) => {
    const p = pg.scenarios[name];
    const q = sqlite.scenarios[name];
    const cpu = p.cpuUsPerRequest / q.cpuUsPerRequest;
    const withDatabase =
      (p.cpuUsPerRequest + p.postgresCpuUsPerRequest) / q.cpuUsPerRequest;
    const throughput = p.perSecond / q.perSecond;
    const p99 = p.p99Ms / q.p99Ms;
    return {
      scenario: name,
      cpuRatio: cpu,
      cpuWithDatabaseRatio: withDatabase,
      throughputRatio: throughput,
      p99Ratio: p99,
      measured: `CPU/req ×${num(cpu, 2)} (with PostgreSQL's ×${num(withDatabase, 2)}); req/s ×${num(throughput, 2)}, p99 ×${num(p99, 2)}`,
      target: `CPU/req ≤ ${POSTGRES_CPU_LIMIT}× SQLite`,
      pass: cpu <= POSTGRES_CPU_LIMIT,
    };
  });
}

// ---- the table ------------------------------------------------------------

function tableFor(
  kind: BackendKind,
  m: BackendMedians,
  refs: ReturnType<typeof referenceMedians>,
  checks: Map<string, TargetCheck>,
  figures: Map<string, string>,
  comparison?: ReturnType<typeof compareWithSqlite>,
): string {
  const rows: Row[] = [];
  // On PostgreSQL the targets are SQLite's; they are shown for information,
  // and the read scenarios are judged against SQLite instead.
  const info = kind === 'postgres';
  const judged = (key: string): Pick<Row, 'measured' | 'target' | 'result'> => {
    const versus = comparison?.find((c) => c.scenario === key);
    const check = checks.get(key);
    if (versus) {
      return {
        measured: `${check ? `${check.measured}; ` : ''}${versus.measured}`,
        target: versus.target,
        result: verdict(versus.pass),
      };
    }
    const figure = figures.get(key);
    if (!check && figure) {
      return { measured: figure, target: 'reported', result: '—' };
    }
    if (!check) return { measured: '—', target: '—', result: '—' };
    return {
      measured: check.measured,
      target: check.target,
      result: info
        ? `${check.pass ? 'pass' : 'fail'} (info)`
        : verdict(check.pass),
    };
  };

  rows.push({
    label: 'ref: bare node:http, same body',
    cells: timedCells(refs.http),
    measured: 'reference',
    target: '—',
    result: '—',
  });
  rows.push({
    label: 'ref: better-sqlite3 12-row tx',
    cells: [
      `${num(refs.sqliteInserts.perSecond)} tx/s`,
      '—',
      '—',
      '—',
      num(refs.sqliteInserts.cpuUsPerOp),
      num(refs.sqliteInserts.rssMb, 1),
    ],
    measured: 'reference',
    target: '—',
    result: '—',
  });
  // The minimal NestJS app's rows, each with its ratio to bare node:http.
  const minimalRows: Array<[string, TimedMedian]> = [
    ['ref: minimal NestJS app, constant body', refs.minimalNestConstant],
    ['ref: minimal NestJS app, same three reads', refs.minimalNest],
    ['ref: minimal NestJS app, one stored answer', refs.minimalNestStored],
  ];
  for (const [label, sample] of minimalRows) {
    if (!Number.isFinite(sample.perSecond)) continue;
    rows.push({
      label,
      cells: timedCells(sample),
      measured: `${num(sample.perSecond / refs.http.perSecond, 3)} × node:http (CPU/req: ${num(refs.http.cpuUsPerRequest / sample.cpuUsPerRequest, 3)} ×)`,
      target: '—',
      result: '—',
    });
  }
  if (Number.isFinite(refs.httpAsset.perSecond)) {
    rows.push({
      label: 'ref: bare node:http, same 1.5 MB PNG',
      cells: timedCells(refs.httpAsset),
      measured: 'reference',
      target: '—',
      result: '—',
    });
  }
  for (const scenario of SCENARIOS) {
    if (!Number.isFinite(m.scenarios[scenario.name].perSecond)) continue;
    rows.push({
      label: scenario.label,
      cells: timedCells(m.scenarios[scenario.name]),
      ...judged(scenario.name),
    });
  }
  const lm = m.listAllMemory;
  if (Number.isFinite(lm.afterLastMb)) {
    rows.push({
      label: 'list all: RSS over the rounds',
      cells: [
        '—',
        '—',
        '—',
        '—',
        '—',
        `${num(lm.beforeFirstMb, 1)} → ${num(lm.afterFirstMb, 1)} → ${num(lm.afterLastMb, 1)}`,
      ],
      ...judged('list-all-memory'),
    });
  }
  const b = m.burst;
  if (Number.isFinite(b.elapsedMs)) {
    rows.push({
      label: `burst ${BURST.requests.toLocaleString('en-US')} × logo, 1 s upstream`,
      cells: [
        num(BURST.requests / (b.elapsedMs / 1000)),
        ms(b.p50Ms),
        ms(b.p99Ms),
        num(b.errors),
        num(b.cpuUsPerRequest),
        `${num(b.rssBeforeMb, 1)} → ${num(b.peakRssMb, 1)}`,
      ],
      ...judged('burst'),
    });
  }
  const r = m.replicas;
  if (Number.isFinite(r.two.perSecond)) {
    const scaling = r.two.perSecond / r.one.perSecond;
    rows.push({
      label: 'replicas: mixed load, 2 processes vs 1',
      cells: [
        `${num(r.one.perSecond)} → ${num(r.two.perSecond)}`,
        `${ms(r.one.p50Ms)} → ${ms(r.two.p50Ms)}`,
        `${ms(r.one.p99Ms)} → ${ms(r.two.p99Ms)}`,
        num(r.one.errors + r.two.errors),
        `${num(r.one.serviceCpuUsPerRequest)} → ${num(r.two.serviceCpuUsPerRequest)}`,
        '—',
      ],
      measured: `×${num(scaling, 2)} req/s; one PostgreSQL core feeds ${num(replicasPerPostgresCore(r.two), 1)} replicas`,
      target: 'reported (2 cores bound it)',
      result: '—',
    });
  }
  rows.push({
    label: 'cold start (spawn → first 200 of /health/ready)',
    cells: ['—', '—', '—', '—', '—', '—'],
    ...judged('cold-start'),
  });
  rows.push({
    label: 'idle RSS after start',
    cells: ['—', '—', '—', '—', '—', num(m.idleRssMb, 1)],
    ...judged('idle-rss'),
  });
  return markdownTable(
    HEADER,
    rows.map((r) => [r.label, ...r.cells, r.measured, r.target, r.result]),
  );
}

/**
 * Replicas one PostgreSQL core could feed on the mixed workload: a replica
 * at one full core serves 1e6 / (its CPU per request) requests per second,
 * each costing PostgreSQL its CPU per request.
 */
function replicasPerPostgresCore(m: ReplicaMedian): number {
  return m.serviceCpuUsPerRequest / m.postgresCpuUsPerRequest;
}

/** Where the CPU went on the mixed workload, one process and two. */
function replicaTable(r: BackendMedians['replicas']): string {
  const row = (m: ReplicaMedian) => [
    String(m.processes),
    num(m.perSecond),
    ms(m.p99Ms),
    num(m.serviceCpuUsPerRequest),
    num(m.postgresCpuUsPerRequest),
    num(m.loadCpuUsPerRequest),
    m.serviceCores.map((cores) => num(cores, 2)).join(' + '),
    num(m.postgresCores, 2),
    num(m.loadCores, 2),
  ];
  return markdownTable(
    [
      'service processes',
      'req/s',
      'p99 ms',
      'service CPU µs/req',
      'PostgreSQL CPU µs/req',
      'load generator CPU µs/req',
      'service cores busy',
      'PostgreSQL cores busy',
      'load generator cores busy',
    ],
    [row(r.one), row(r.two)],
  );
}

// ---- output ---------------------------------------------------------------

export interface WrittenReport {
  text: string;
  files: string[];
  allPassed: boolean;
}

export async function writeReport(
  info: RunInfo,
  refsRaw: References,
  runs: BackendRun[],
): Promise<WrittenReport> {
  const refs = referenceMedians(refsRaw);
  const medians = new Map(runs.map((run) => [run.kind, backendMedians(run)]));
  const sqlite = medians.get('sqlite');
  const totalS = (info.finishedAt.getTime() - info.startedAt.getTime()) / 1000;
  const stamp = info.startedAt
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.\d+Z$/, 'Z');
  const s = info.settings;
  const about =
    `${s.rounds} round${s.rounds === 1 ? '' : 's'}, medians; ${s.connections} connections, ${s.warmupS} s warm-up + ${s.durationS} s per window; ` +
    `server and references on core 0, load generator on core 1; ` +
    `main data set ${MAIN_DATA.projects.toLocaleString('en-US')} projects / ${MAIN_DATA.users.toLocaleString('en-US')} users, ` +
    `list-all data set ${SMALL_DATA.projects.toLocaleString('en-US')} projects. ` +
    `Errors are summed over the rounds; req/s counts 2xx answers only.`;

  const code = `${info.code.commit.slice(0, 7)}${info.code.uncommittedChanges ? ' + uncommitted changes' : ''}`;
  const sections: string[] = [];
  const files: string[] = [];
  const warnings: string[] = [];
  let allPassed = true;
  if (refs.http.serverCoreBusy < 0.85) {
    warnings.push(
      `Note: the bare node:http reference kept core 0 only ${num(refs.http.serverCoreBusy * 100)}% busy, so the load generator ` +
        `(one core) was its bottleneck and its req/s understates the ceiling; the CPU/req ratio beside "get by id" does not depend on that.`,
    );
  }
  for (const run of runs) {
    const overflows = medians.get(run.kind)!.burst.listenOverflows;
    if (overflows > 0) {
      warnings.push(
        `Note (${run.kind}): ${overflows} connections of the bursts overflowed a listen queue (a 1 s SYN retry each).`,
      );
    }
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  for (const run of runs) {
    const m = medians.get(run.kind)!;
    const checks = checkTargets(m, refs);
    const comparison =
      run.kind === 'postgres' && sqlite
        ? compareWithSqlite(m, sqlite)
        : undefined;
    const figures = assetFigures(m, refs);
    const table = tableFor(run.kind, m, refs, checks, figures, comparison);
    const title = `${run.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} — ${info.startedAt.toISOString()}, code ${code}, total run ${num(totalS)} s`;
    const replicas = Number.isFinite(m.replicas.two.perSecond)
      ? `\n\nReplicas (80% GET by id, 15% list by userId, 5% create; service processes unpinned; the machine's 2 cores are shared by the services, PostgreSQL and the load generator):\n\n${replicaTable(m.replicas)}`
      : '';
    sections.push(`### ${title}\n\n${table}${replicas}`);
    const judged =
      run.kind === 'sqlite'
        ? [...checks.values()].map((c) => c.pass)
        : (comparison ?? []).map((c) => c.pass);
    allPassed &&= judged.every(Boolean);

    const file = join(RESULTS_DIR, `${stamp}-${run.kind}.json`);
    const json = JSON.stringify({
      backend: run.kind,
      startedAt: info.startedAt.toISOString(),
      finishedAt: info.finishedAt.toISOString(),
      totalRunSeconds: totalS,
      code: info.code,
      machine: info.machine,
      settings: {
        ...s,
        only: s.only ? [...s.only] : undefined,
        mainData: MAIN_DATA,
        smallData: SMALL_DATA,
        burst: BURST,
      },
      about,
      warnings,
      references: { medians: refs, rounds: refsRaw },
      medians: m,
      targets: Object.fromEntries(checks),
      figures: Object.fromEntries(figures),
      comparisonWithSqlite: comparison,
      rounds: {
        scenarios: run.scenarios,
        bursts: run.bursts,
        coldStarts: run.coldStarts,
        listAllRss: run.listAllRss,
      },
      table,
    });
    // Formatted as the repository's Prettier would, so committed results
    // pass `prettier --check bench` as they are.
    writeFileSync(file, await format(json, { parser: 'json' }));
    files.push(file);
  }
  const text = [...sections, about, ...warnings].join('\n\n') + '\n';
  return { text, files, allPassed };
}
