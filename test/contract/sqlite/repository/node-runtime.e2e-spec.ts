import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PINNED_BINARY,
  RECORD_FILE,
} from '../../../../src/runtime/node-binary';
import { REQUIRED_NODE_MAJOR } from '../../../../src/runtime/runtime-refusal';
import { REPO_ROOT } from '../../../support/server-process';

/**
 * Nothing runs on a Node.js binary other than the recorded one, and the
 * service does not start on another major: npm's postinstall check and the
 * service's first import, each run on a copied tree whose binary or record
 * is then spoiled.
 */

const TS_NODE = require.resolve('ts-node/register/transpile-only', {
  paths: [REPO_ROOT],
});
const VERIFY = join(REPO_ROOT, 'scripts', 'verify-node-binary.ts');
const RUNTIME_CHECK = join(REPO_ROOT, 'src', 'runtime-check.ts');
/** The machine's own Node.js, another major than the pinned one. */
const SYSTEM_NODE = '/usr/bin/node';

interface Outcome {
  status: number | null;
  stderr: string;
  stdout: string;
}

function run(node: string, args: string[], cwd: string): Outcome {
  const result = spawnSync(node, args, {
    cwd,
    encoding: 'utf8',
    // ts-node looks for tsconfig.json from the working folder up.
    env: { ...process.env, TS_NODE_PROJECT: join(REPO_ROOT, 'tsconfig.json') },
  });
  return {
    status: result.status,
    stderr: result.stderr,
    stdout: result.stdout,
  };
}

/** npm's postinstall, as package.json runs it: npm's Node.js, the tree as cwd. */
const postinstall = (root: string) =>
  run(process.execPath, ['-r', TS_NODE, VERIFY], root);

/** The service's first import, run on the tree's own binary. */
const startPath = (root: string) =>
  run(
    join(root, PINNED_BINARY),
    [
      '-r',
      TS_NODE,
      '-e',
      `require(${JSON.stringify(RUNTIME_CHECK)}); console.log('started')`,
    ],
    root,
  );

const oneLine = (text: string) => text.trim().split('\n');

describe('the pinned Node.js binary', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'node-runtime-'));
    mkdirSync(join(root, 'node_modules', 'node', 'bin'), { recursive: true });
    copyFileSync(join(REPO_ROOT, PINNED_BINARY), join(root, PINNED_BINARY));
    copyFileSync(join(REPO_ROOT, RECORD_FILE), join(root, RECORD_FILE));
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is the recorded one in this repository', () => {
    expect(postinstall(REPO_ROOT)).toMatchObject({ status: 0, stderr: '' });
  });

  it('copied unchanged, passes both checks', () => {
    expect(postinstall(root)).toMatchObject({ status: 0, stderr: '' });
    const started = startPath(root);
    expect(started.stdout.trim()).toBe('started');
    expect(started.status).toBe(0);
  });

  it('tampered with after a start that passed (one byte appended, it still runs), is refused by both in one line', () => {
    expect(startPath(root).status).toBe(0);
    appendFileSync(join(root, PINNED_BINARY), Buffer.from([0]));
    for (const outcome of [postinstall(root), startPath(root)]) {
      expect(outcome.status).toBe(1);
      expect(outcome.stdout).toBe('');
      expect(oneLine(outcome.stderr)).toEqual([
        expect.stringMatching(
          /^node_modules\/node\/bin\/node \(sha256 [0-9a-f]{64}\) is not the Node\.js .* binary recorded in node-binaries\.json .*: delete node_modules and run `npm ci` again/,
        ),
      ]);
    }
  });

  it('against a wrong recorded sum, is refused by both, even after a start that passed', () => {
    expect(startPath(root).status).toBe(0);
    const record = JSON.parse(
      readFileSync(join(root, RECORD_FILE), 'utf8'),
    ) as { binaries: Record<string, { sha256: string }> };
    for (const binary of Object.values(record.binaries)) {
      binary.sha256 = 'f'.repeat(64);
    }
    writeFileSync(join(root, RECORD_FILE), JSON.stringify(record));
    for (const outcome of [postinstall(root), startPath(root)]) {
      expect(outcome.status).toBe(1);
      expect(oneLine(outcome.stderr)).toHaveLength(1);
      expect(outcome.stderr).toContain(`(sha256 ${'f'.repeat(64)})`);
    }
  });

  it('absent (Node.js from elsewhere), leaves postinstall nothing to check', () => {
    rmSync(join(root, 'node_modules'), { recursive: true });
    expect(postinstall(root)).toMatchObject({ status: 0, stderr: '' });
  });
});

describe('the service on another Node.js major', () => {
  it('refuses to start, in one line, before Nest loads', () => {
    const version = spawnSync(SYSTEM_NODE, ['--version'], {
      encoding: 'utf8',
    }).stdout.trim();
    expect(version).toMatch(/^v\d+\./);
    expect(version.startsWith(`v${REQUIRED_NODE_MAJOR}.`)).toBe(false);
    const main = join(REPO_ROOT, 'dist', 'src', 'main.js');
    expect(existsSync(main)).toBe(true);
    const outcome = run(SYSTEM_NODE, [main], REPO_ROOT);
    expect(outcome.status).not.toBe(0);
    expect(outcome.stdout).toBe('');
    expect(oneLine(outcome.stderr)).toEqual([
      `This service runs on Node.js ${REQUIRED_NODE_MAJOR} and this is ${version}: run \`npm ci\` (without --omit=optional) and start it with npm, or put Node.js ${REQUIRED_NODE_MAJOR} first on PATH (.nvmrc)`,
    ]);
  });
});
