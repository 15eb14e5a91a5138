import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../../support/server-process';

/**
 * Every test file is in a tier (docs/development.md, "Tests"): a suite no
 * Jest config selects would never run, in `npm test` or in
 * `npm run test:all`. Which files a config selects is asked of Jest itself
 * (`--listTests`), so this reads the configs as Jest does.
 */

const run = promisify(execFile);
const JEST = join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js');

/** The Jest configs, by tier; the SQLite tiers must not overlap. */
const SQLITE_TIERS = {
  contract: 'test/jest-e2e.json',
  redis: 'test/jest-redis.json',
  full: 'test/jest-e2e-full.json',
  container: 'test/jest-container.json',
};
const UNIT = 'test/jest-unit.json';
const POSTGRES = 'test/jest-e2e-postgres.json';

async function listed(config: string): Promise<string[]> {
  const { stdout } = await run(
    process.execPath,
    [JEST, '--listTests', '--json', '--config', config],
    { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 },
  );
  return (JSON.parse(stdout) as string[])
    .map((file) => relative(REPO_ROOT, file))
    .sort();
}

/** Files under `dir` (relative to the repository) whose name ends with `suffix`. */
function filesEndingWith(dir: string, suffix: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith(suffix))
    .map((file) => join(dir, file))
    .sort();
}

/** The files a config's testMatch names one by one (no wildcard). */
function namedFiles(config: string): string[] {
  const { rootDir, testMatch = [] } = JSON.parse(
    readFileSync(join(REPO_ROOT, config), 'utf8'),
  ) as { rootDir: string; testMatch?: string[] };
  const root = join(dirname(config), rootDir);
  return testMatch
    .filter((pattern) => !pattern.includes('*'))
    .map((pattern) => join(root, pattern.replace('<rootDir>/', '')));
}

describe('test tiers', () => {
  let tiers: Record<string, string[]>;
  let unit: string[];
  let postgres: string[];

  beforeAll(async () => {
    const names = Object.keys(SQLITE_TIERS);
    const lists = await Promise.all([
      ...Object.values(SQLITE_TIERS).map(listed),
      listed(UNIT),
      listed(POSTGRES),
    ]);
    tiers = Object.fromEntries(names.map((name, i) => [name, lists[i]]));
    unit = lists[names.length];
    postgres = lists[names.length + 1];
  });

  it('puts every e2e suite on SQLite in exactly one tier', () => {
    const suites = filesEndingWith('test', '.e2e-spec.ts').filter(
      (file) => !file.startsWith('test/postgres/'),
    );
    const problems = suites.flatMap((file) => {
      const inTiers = Object.keys(tiers).filter((name) =>
        tiers[name].includes(file),
      );
      return inTiers.length === 1
        ? []
        : [`${file}: ${inTiers.length} tiers (${inTiers.join(', ')})`];
    });
    expect(problems).toEqual([]);
  });

  it('runs every unit spec, those that need Redis in the Redis tier only', () => {
    const specs = ['src', 'dev-servers', 'config'].flatMap((dir) =>
      filesEndingWith(dir, '.spec.ts'),
    );
    const problems = specs.flatMap((file) => {
      const count =
        Number(unit.includes(file)) + Number(tiers.redis.includes(file));
      return count === 1 ? [] : [`${file}: in ${count} tiers`];
    });
    expect(problems).toEqual([]);
  });

  it('runs every suite of test/postgres/ in the PostgreSQL pass', () => {
    const missing = filesEndingWith('test/postgres', '.e2e-spec.ts').filter(
      (file) => !postgres.includes(file),
    );
    expect(missing).toEqual([]);
  });

  it('names no file that does not exist (Jest would skip it silently)', () => {
    const configs = [...Object.values(SQLITE_TIERS), UNIT, POSTGRES];
    const missing = configs.flatMap((config) =>
      namedFiles(config).filter(
        (file) =>
          !Object.values(tiers).flat().includes(file) &&
          !unit.includes(file) &&
          !postgres.includes(file),
      ),
    );
    expect(missing).toEqual([]);
  });
});
