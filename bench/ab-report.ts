import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'prettier';
import {
  type AbScenarioName,
  type AbSettings,
  CPU_TOLERANCE,
  CREATE_MIN_SHARE_OF_REFERENCE,
} from './ab-settings';
import type { BackendKind } from './databases';
import type { TimedSample } from './measure';
import { MB } from './proc-stats';
import type { SqliteRefSample } from './report';
import { RESULTS_DIR } from './settings';
import { median } from './stats';

/**
 * Turns the A/B rounds into one Markdown table per database (medians of
 * A and B, the change from A to B, the spread of the per-round changes)
 * and writes the same, with every raw sample, to bench/results/ab-<time>.json.
 */

export interface AbPair {
  a: TimedSample[];
  b: TimedSample[];
}

export interface AbBackendRun {
  kind: BackendKind;
  scenarios: Partial<Record<AbScenarioName, AbPair>>;
  /** better-sqlite3 alone, 12 rows per transaction (SQLite only). */
  reference: SqliteRefSample[];
  /** Spawn to the first 200 of each round's fresh process, per build. */
  coldStartsMs: { a: number[]; b: number[] };
  /**
   * VmRSS of each round's fresh process, one second after both builds'
   * processes answered, before any load.
   */
  idleRssBytes: { a: number[]; b: number[] };
}

/** One row of the start table: medians of the rounds, per build. */
export interface AbStartRow {
  measure: 'coldStartMs' | 'idleRssMb';
  a: number;
  b: number;
  /** (B − A) / A of the medians. */
  change: number;
  /** Smallest and largest (B − A) / A of one round's two processes. */
  changeRange: [number, number];
}

export interface AbRow {
  scenario: AbScenarioName;
  cpuUsA: number;
  cpuUsB: number;
  /** (B − A) / A of the medians. */
  cpuChange: number;
  /** Smallest and largest (B − A) / A of one round's adjacent windows. */
  cpuChangeRange: [number, number];
  /**
   * (B − A) / A of each build's least CPU per request over the rounds:
   * other work on the machine only ever adds to it, so the least is the
   * round that was disturbed least.
   */
  cpuLeastChange: number;
  /**
   * Median share of the server's core busy with anything but the server:
   * other processes, and kernel work (some on the server's behalf).
   */
  coreOthersA: number;
  coreOthersB: number;
  perSecondA: number;
  perSecondB: number;
  perSecondChange: number;
  errorsA: number;
  errorsB: number;
  /** Create only: req/s ÷ the reference's transactions/s. */
  shareOfReferenceA?: number;
  shareOfReferenceB?: number;
  /** Whether B meets its target (undefined: no target for this row). */
  pass?: boolean;
}

const LABELS: Record<AbScenarioName, string> = {
  'get-by-id': 'get by id',
  'list-by-user': 'list by userId (20 each)',
  logo: 'logo, 0 ms upstream',
  create: 'create (1 + 8 + 3 rows)',
  'keep-logo': 'keep logo (1.5 MB PNG), 0 ms upstream',
};

const change = (a: number, b: number) => (b - a) / a;

export function summarize(run: AbBackendRun): AbRow[] {
  const referencePerSecond = median(run.reference.map((r) => r.perSecond));
  const rows: AbRow[] = [];
  for (const [name, pair] of Object.entries(run.scenarios) as Array<
    [AbScenarioName, AbPair]
  >) {
    const cpu = (samples: TimedSample[]) =>
      median(samples.map((s) => s.cpuUsPerRequest));
    const rate = (samples: TimedSample[]) =>
      median(samples.map((s) => s.perSecond));
    const least = (samples: TimedSample[]) =>
      Math.min(...samples.map((s) => s.cpuUsPerRequest));
    const others = (samples: TimedSample[]) =>
      median(samples.map((s) => s.coreOthersBusy ?? NaN));
    const perRound = pair.a.map((a, i) =>
      change(a.cpuUsPerRequest, pair.b[i].cpuUsPerRequest),
    );
    const row: AbRow = {
      scenario: name,
      cpuUsA: cpu(pair.a),
      cpuUsB: cpu(pair.b),
      cpuChange: change(cpu(pair.a), cpu(pair.b)),
      cpuChangeRange: [Math.min(...perRound), Math.max(...perRound)],
      cpuLeastChange: change(least(pair.a), least(pair.b)),
      coreOthersA: others(pair.a),
      coreOthersB: others(pair.b),
      perSecondA: rate(pair.a),
      perSecondB: rate(pair.b),
      perSecondChange: change(rate(pair.a), rate(pair.b)),
      errorsA: pair.a.reduce((sum, s) => sum + s.errors, 0),
      errorsB: pair.b.reduce((sum, s) => sum + s.errors, 0),
    };
    row.pass = row.cpuChange <= CPU_TOLERANCE;
    if (name === 'create' && Number.isFinite(referencePerSecond)) {
      row.shareOfReferenceA = row.perSecondA / referencePerSecond;
      row.shareOfReferenceB = row.perSecondB / referencePerSecond;
      row.pass &&= row.shareOfReferenceB >= CREATE_MIN_SHARE_OF_REFERENCE;
    }
    if (row.errorsA + row.errorsB > 0) row.pass = false;
    rows.push(row);
  }
  return rows;
}

/** Cold start and idle RSS of both builds, from the rounds' fresh processes. */
export function summarizeStart(run: AbBackendRun): AbStartRow[] {
  const row = (
    measure: AbStartRow['measure'],
    values: { a: number[]; b: number[] },
    scale: number,
  ): AbStartRow => {
    const perRound = values.a.map((a, i) => change(a, values.b[i]));
    return {
      measure,
      a: median(values.a) / scale,
      b: median(values.b) / scale,
      change: change(median(values.a), median(values.b)),
      changeRange: [Math.min(...perRound), Math.max(...perRound)],
    };
  };
  return [
    row('coldStartMs', run.coldStartsMs, 1),
    row('idleRssMb', run.idleRssBytes, MB),
  ];
}

const fmt = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toFixed(digits) : '—';
const pct = (value: number) =>
  Number.isFinite(value)
    ? `${value >= 0 ? '+' : '−'}${Math.abs(value * 100).toFixed(1)}%`
    : '—';

function target(row: AbRow): string {
  if (row.pass === undefined) return '—';
  const verdict = row.pass ? 'pass' : '**FAIL**';
  const errors =
    row.errorsA + row.errorsB > 0
      ? `; errors A ${row.errorsA}, B ${row.errorsB}`
      : '';
  if (row.shareOfReferenceB !== undefined) {
    return `CPU ≤ ${pct(CPU_TOLERANCE)} and B ${fmt(row.shareOfReferenceB, 3)} × ref (A ${fmt(row.shareOfReferenceA!, 3)}), ≥ ${CREATE_MIN_SHARE_OF_REFERENCE}: ${verdict}${errors}`;
  }
  return `CPU ≤ ${pct(CPU_TOLERANCE)}: ${verdict}${errors}`;
}

export function tableOf(run: AbBackendRun, rows: AbRow[]): string {
  const lines = [
    '| Scenario | A µs/req | B µs/req | CPU B vs A | per round | least of rounds | A req/s | B req/s | req/s B vs A | core 0 busy beside the server, A / B | Target |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${LABELS[row.scenario]} | ${fmt(row.cpuUsA)} | ${fmt(row.cpuUsB)} | ${pct(row.cpuChange)} | ` +
        `${pct(row.cpuChangeRange[0])} … ${pct(row.cpuChangeRange[1])} | ${pct(row.cpuLeastChange)} | ${fmt(row.perSecondA)} | ` +
        `${fmt(row.perSecondB)} | ${pct(row.perSecondChange)} | ${fmt(row.coreOthersA * 100)}% / ${fmt(row.coreOthersB * 100)}% | ${target(row)} |`,
    );
  }
  if (run.reference.length > 0) {
    const cpu = median(run.reference.map((r) => r.cpuUsPerOp));
    const perSecond = median(run.reference.map((r) => r.perSecond));
    lines.push(
      `| ref: better-sqlite3, 12 rows per transaction | ${fmt(cpu)} µs/tx | | | | | ${fmt(perSecond)} tx/s | | | | reference |`,
    );
  }
  return lines.join('\n');
}

const START_LABELS: Record<AbStartRow['measure'], [string, number]> = {
  coldStartMs: ['cold start (spawn → first 200), median ms', 0],
  idleRssMb: ['idle RSS after start, median MB', 1],
};

export function startTableOf(rows: AbStartRow[]): string {
  const lines = [
    '| Start | A | B | B vs A | per round |',
    '| --- | --: | --: | --: | --: |',
  ];
  for (const row of rows) {
    const [label, digits] = START_LABELS[row.measure];
    lines.push(
      `| ${label} | ${fmt(row.a, digits)} | ${fmt(row.b, digits)} | ${pct(row.change)} | ` +
        `${pct(row.changeRange[0])} … ${pct(row.changeRange[1])} |`,
    );
  }
  return lines.join('\n');
}

export interface AbReport {
  text: string;
  file: string;
  allPassed: boolean;
}

export async function writeAbReport(
  settings: AbSettings,
  timing: { startedAt: Date; finishedAt: Date },
  machine: Record<string, unknown>,
  runs: AbBackendRun[],
): Promise<AbReport> {
  const sections: string[] = [];
  const summaries = runs.map((run) => ({
    kind: run.kind,
    rows: summarize(run),
    start: summarizeStart(run),
  }));
  for (const [i, run] of runs.entries()) {
    sections.push(
      `### ${run.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}\n\n` +
        (await format(tableOf(run, summaries[i].rows), {
          parser: 'markdown',
        })) +
        '\n' +
        (await format(startTableOf(summaries[i].start), {
          parser: 'markdown',
        })),
    );
  }
  const seconds =
    (timing.finishedAt.getTime() - timing.startedAt.getTime()) / 1000;
  const describe = (b: AbSettings['a']) =>
    `${b.label} = ${b.dir} (${b.commit.slice(0, 7)}${b.uncommittedChanges ? ', uncommitted changes' : ''}, Node ${b.nodeVersion})`;
  const about =
    `${describe(settings.a)}; ${describe(settings.b)}. ` +
    `${settings.rounds} round${settings.rounds === 1 ? '' : 's'} on fresh processes, started and driven A B then B A alternately; each window ${settings.warmupS} s warm-up + ${settings.durationS} s measured, ` +
    `${settings.connections} connections; ${settings.data.projects} projects over ${settings.data.users} users, seeded once per database ` +
    `(SQLite: ${settings.sharedSqlite ? 'one file for both builds' : 'a byte copy of it per build'}; PostgreSQL: a TEMPLATE copy per build). ` +
    `µs/req: the server's user+system CPU time per answered request, median of the rounds; "per round": the smallest and largest change ` +
    `between the two adjacent windows of one round; "least of rounds": the change between each build's least µs/req; ` +
    `"core 0 busy beside the server": the share of the server's core busy with anything but the server during the windows (median): ` +
    `other processes, and kernel work such as loopback networking and disk flushes, some of it on the server's behalf. ` +
    `Start: each round's fresh process per build, cold start from spawn to the first 200 on an empty list, idle RSS (VmRSS) ` +
    `1 s after both had answered, before any load; "per round": the smallest and largest change between the two processes of one round. ` +
    `Total run time ${fmt(seconds / 60, 1)} min.`;
  const allPassed = summaries.every((s) =>
    s.rows.every((row) => row.pass !== false),
  );

  mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = timing.startedAt
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.\d+Z$/, 'Z');
  const file = join(RESULTS_DIR, `ab-${stamp}.json`);
  const json = JSON.stringify({
    startedAt: timing.startedAt,
    finishedAt: timing.finishedAt,
    totalSeconds: seconds,
    settings,
    machine,
    summary: summaries,
    runs,
  });
  // Formatted as the repository's Prettier would, so committed results
  // pass `prettier --check bench` as they are.
  writeFileSync(file, await format(json, { parser: 'json' }));
  return {
    text: `${sections.join('\n')}\n${about}\n`,
    file,
    allPassed,
  };
}
