/**
 * `npm run test:reliability`: the long reliability run. Builds, runs
 * test/reliability with RELIABILITY_SCALE=long on SQLite and (when
 * TEST_POSTGRES_URL is set) on PostgreSQL, one spec at a time, and prints
 * the figures every driver recorded as one table.
 *
 * RELIABILITY_SEED=<n> replays a run (every driver prints its seed).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ReliabilityRecord } from '../support/reliability';

const ROOT = resolve(__dirname, '..', '..');
// Jest loads Nest's ES modules through require(), which needs VM modules
// (npm passes .npmrc's node-options to scripts; this runs Node itself).
const JEST = [
  '--experimental-vm-modules',
  join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
];

type Row = ReliabilityRecord & { database: string };

function run(command: string, args: string[], env: NodeJS.ProcessEnv): boolean {
  const result = spawnSync(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  return result.status === 0;
}

function table(rows: Row[]): string {
  const header = ['Database', 'Driver', 'What', 'Count', 'Failures'];
  const lines = rows.map((row) => [
    row.database,
    row.driver,
    row.item,
    row.count.toLocaleString('en-US'),
    String(row.failures),
  ]);
  const totals = new Map<string, { count: number; failures: number }>();
  for (const row of rows) {
    const key = `${row.driver}`;
    const total = totals.get(key) ?? { count: 0, failures: 0 };
    total.count += row.count;
    total.failures += row.failures;
    totals.set(key, total);
  }
  for (const [driver, total] of totals) {
    lines.push([
      'all',
      driver,
      `total (${
        {
          fuzz: 'generated cases',
          crash: 'kills survived',
          faults: 'faults tried',
          load: 'requests under load',
          cost: 'bodies sent',
          flood: 'flood requests',
        }[driver] ?? driver
      })`,
      total.count.toLocaleString('en-US'),
      String(total.failures),
    ]);
  }
  const all = [header, ...lines];
  const widths = header.map((_, i) =>
    Math.max(...all.map((line) => line[i].length)),
  );
  const format = (line: string[]) =>
    `| ${line.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [
    format(header),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...lines.map(format),
  ].join('\n');
}

/** The cost driver's figures: the worst body of each family per route. */
function costTable(rows: Row[]): string {
  const header = [
    'Database',
    'Route',
    'Body (worst of its family)',
    'Size',
    'Status',
    'Answered in',
    'Loop held',
    'Loop delay (max)',
  ];
  const lines = rows.flatMap((row) =>
    row.cost
      ? [
          [
            row.database,
            row.cost.route,
            row.cost.family,
            `${row.cost.bytes.toLocaleString('en-US')} B`,
            String(row.cost.status),
            `${row.cost.answerMs} ms`,
            `${row.cost.stallMs} ms`,
            `${row.cost.delayMs} ms`,
          ],
        ]
      : [],
  );
  if (lines.length === 0) return '';
  const all = [header, ...lines];
  const widths = header.map((_, i) =>
    Math.max(...all.map((line) => line[i].length)),
  );
  const format = (line: string[]) =>
    `| ${line.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [
    format(header),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...lines.map(format),
  ].join('\n');
}

function main(): number {
  if (!run('npm', ['run', 'build'], {})) return 1;
  const dir = mkdtempSync(join(tmpdir(), 'reliability-'));
  const report = join(dir, 'report.jsonl');
  const common = {
    RELIABILITY_SCALE: 'long',
    RELIABILITY_REPORT: report,
  };
  const results: string[] = [];
  // --runInBand: one spec at a time, so the load and stall figures are not
  // those of a machine also busy fuzzing.
  const sqliteOk = run(
    process.execPath,
    [
      ...JEST,
      '--config',
      'test/jest-e2e-full.json',
      '--runInBand',
      'test/reliability',
    ],
    common,
  );
  results.push(`SQLite: ${sqliteOk ? 'passed' : 'FAILED'}`);
  let postgresOk = true;
  if (process.env.TEST_POSTGRES_URL) {
    postgresOk = run(
      process.execPath,
      [
        ...JEST,
        '--config',
        'test/jest-e2e-postgres.json',
        '--runInBand',
        'test/reliability',
      ],
      { ...common, TEST_DATABASE: 'postgres' },
    );
    results.push(`PostgreSQL: ${postgresOk ? 'passed' : 'FAILED'}`);
  } else {
    results.push('PostgreSQL: not run (TEST_POSTGRES_URL is not set)');
  }

  let rows: Row[] = [];
  try {
    rows = readFileSync(report, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Row);
  } catch {
    // No driver got as far as recording a figure.
  }
  rmSync(dir, { recursive: true, force: true });
  const costs = costTable(rows);
  process.stdout.write(
    `\nReliability run (long), ${new Date().toISOString()}\n\n${table(rows)}\n\n${costs === '' ? '' : `${costs}\n\n`}${results.join('\n')}\n`,
  );
  return sqliteOk && postgresOk ? 0 : 1;
}

process.exitCode = main();
