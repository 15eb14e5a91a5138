import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../../support/server-process';

/**
 * A suite's folder decides the tiers it runs in (docs/development.md,
 * "Tiers"); the Jest configs select folders, never single files, so a
 * suite dropped into a tier's folder runs without editing a config, and a
 * suite outside every tier folder would never run. Which files a config
 * selects is asked of Jest itself (`--listTests`), so this reads the
 * configs as Jest does.
 */

const run = promisify(execFile);
const JEST = join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js');

const CONFIGS = {
  unit: 'test/jest-unit.json',
  contract: 'test/jest-e2e.json',
  full: 'test/jest-e2e-full.json',
  postgres: 'test/jest-e2e-postgres.json',
  redis: 'test/jest-redis.json',
  container: 'test/jest-container.json',
};
type Tier = keyof typeof CONFIGS;

/** Where a suite may lie: a tier folder, then (for the large tiers) the databases it runs on and its feature. */
const SUITE_FOLDERS = [
  /^test\/(contract|full)\/(sqlite|sqlite-and-postgres)\/[a-z0-9-]+\/[^/]+\.e2e-spec\.ts$/,
  /^test\/reliability\/(sqlite|sqlite-and-postgres)\/[^/]+\.e2e-spec\.ts$/,
  /^test\/(postgres|redis|container)\/[^/]+\.e2e-spec\.ts$/,
];

/** A unit spec that needs a Redis server runs in the Redis tier instead. */
const NEEDS_REDIS = /\/redis-[^/]*\.spec\.ts$/;

/** The tiers a file belongs to, by the folder rule alone. */
function tiersByFolder(file: string): Tier[] {
  const rules: Record<Tier, boolean> = {
    unit:
      /^(src|dev-servers|config)\/.*\.spec\.ts$/.test(file) &&
      !NEEDS_REDIS.test(file),
    contract: file.startsWith('test/contract/'),
    full: /^test\/(full|reliability)\//.test(file),
    postgres: /^test\/(postgres\/|[^/]+\/sqlite-and-postgres\/)/.test(file),
    redis: file.startsWith('test/redis/') || NEEDS_REDIS.test(file),
    container: file.startsWith('test/container/'),
  };
  return (Object.keys(rules) as Tier[]).filter((tier) => rules[tier]);
}

async function listed(config: string, ...paths: string[]): Promise<string[]> {
  const { stdout } = await run(
    process.execPath,
    [JEST, '--listTests', '--json', '--config', config, ...paths],
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

/** A config's entries that name one file rather than a folder or a pattern. */
function singleFiles(config: string): string[] {
  const options = JSON.parse(
    readFileSync(join(REPO_ROOT, config), 'utf8'),
  ) as Record<string, unknown>;
  return ['roots', 'testMatch', 'testRegex', 'testPathIgnorePatterns']
    .flatMap((key) => [options[key] ?? []].flat() as string[])
    .filter((entry) => /\.ts\$?$/.test(entry) && !/[*[]/.test(entry));
}

describe('test tiers', () => {
  const suites = filesEndingWith('test', '.e2e-spec.ts');
  const specs = ['src', 'dev-servers', 'config'].flatMap((dir) =>
    filesEndingWith(dir, '.spec.ts'),
  );
  let tiers: Record<Tier, string[]>;

  beforeAll(async () => {
    const names = Object.keys(CONFIGS) as Tier[];
    const lists = await Promise.all(names.map((name) => listed(CONFIGS[name])));
    tiers = Object.fromEntries(
      names.map((name, i) => [name, lists[i]]),
    ) as Record<Tier, string[]>;
  });

  it('keeps every e2e suite in a tier folder', () => {
    const astray = suites.filter(
      (file) => !SUITE_FOLDERS.some((folder) => folder.test(file)),
    );
    expect(astray).toEqual([]);
  });

  it('has every config run exactly the suites and specs its folders hold', () => {
    const problems = [...suites, ...specs].flatMap((file) => {
      const expected = tiersByFolder(file);
      const actual = (Object.keys(tiers) as Tier[]).filter((tier) =>
        tiers[tier].includes(file),
      );
      return expected.join() === actual.join()
        ? []
        : [
            `${file}: runs in [${actual.join(', ')}], its folder says [${expected.join(', ')}]`,
          ];
    });
    expect(problems).toEqual([]);
  });

  it('runs every suite and spec in exactly one tier on SQLite', () => {
    const sqliteTiers: Tier[] = [
      'unit',
      'contract',
      'full',
      'redis',
      'container',
    ];
    const problems = [...suites, ...specs]
      .filter((file) => !file.startsWith('test/postgres/'))
      .flatMap((file) => {
        const inTiers = sqliteTiers.filter((tier) =>
          tiers[tier].includes(file),
        );
        return inTiers.length === 1
          ? []
          : [`${file}: ${inTiers.length} tiers (${inTiers.join(', ')})`];
      });
    expect(problems).toEqual([]);
  });

  it('selects by folder or pattern in every config, never by a file name', () => {
    const named = Object.values(CONFIGS).flatMap((config) =>
      singleFiles(config).map((entry) => `${config}: ${entry}`),
    );
    expect(named).toEqual([]);
  });

  it('runs exactly the suite a developer names on the command line', async () => {
    const suite = relative(REPO_ROOT, __filename);
    expect(await listed(CONFIGS.contract, suite)).toEqual([suite]);
  });
});
