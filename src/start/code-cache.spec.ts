import { spawnSync } from 'node:child_process';
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Each start is its own process, as in production: within one process V8
 * keeps the compiled script in memory and never looks at a cache again.
 */
describe('the bundle run from its code cache', () => {
  let dir: string;
  let bundle: string;
  let cacheDir: string;

  /** One start: loads the bundle, calls it, then saves as after the warm-up. */
  const start = (): {
    dir: string;
    sibling: string;
    twice: number;
    imported: string;
    saved: boolean;
    stderr: string;
  } => {
    const script = [
      `const { requireWithCodeCache, saveCompiledCode } = require(${JSON.stringify(join(__dirname, 'code-cache'))});`,
      `const loaded = requireWithCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(cacheDir)});`,
      'const twice = loaded.twice(21);',
      'loaded.imported.then((imported) => {',
      '  const saved = saveCompiledCode();',
      '  process.stdout.write(JSON.stringify({ dir: loaded.dir, sibling: loaded.sibling, twice, imported, saved }));',
      '});',
    ].join('\n');
    const child = spawnSync(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-e', script],
      { encoding: 'utf8' },
    );
    return {
      ...(JSON.parse(child.stdout) as Omit<ReturnType<typeof start>, 'stderr'>),
      stderr: child.stderr,
    };
  };
  const caches = () =>
    readdirSync(cacheDir).filter((name) => name.endsWith('.v8cache'));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
    bundle = join(dir, 'app.js');
    cacheDir = join(dir, 'cache');
    writeFileSync(join(dir, 'sibling.js'), 'module.exports = "beside";\n');
    writeFileSync(
      bundle,
      [
        'exports.dir = __dirname;',
        'exports.sibling = require("./sibling.js");',
        'exports.twice = function twice(n) { return n * 2; };',
        'exports.imported = import("node:os").then((os) => typeof os.cpus);',
      ].join('\n'),
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the bundle as require would: its folder, its requires, its imports, its exports', () => {
    expect(start()).toMatchObject({
      dir,
      sibling: 'beside',
      twice: 42,
      imported: 'function',
    });
  });

  it("writes nothing on stderr, not even Node's warning about the loader option", () => {
    expect(start().stderr).toBe('');
  });

  it('the first start saves a cache named after the build, and only that file', () => {
    expect(start().saved).toBe(true);
    const { size, mtimeMs } = statSync(bundle);
    expect(readdirSync(cacheDir)).toEqual([
      `app-${size}-${Math.trunc(mtimeMs)}.v8cache`,
    ]);
    expect(statSync(join(cacheDir, caches()[0])).size).toBeGreaterThan(0);
  });

  it('a start that finds a matching cache runs from it and saves nothing', () => {
    start();
    const file = join(cacheDir, caches()[0]);
    const saved = readFileSync(file);
    expect(start()).toMatchObject({ twice: 42, saved: false });
    expect(readFileSync(file).equals(saved)).toBe(true);
  });

  it('a cache V8 rejects is replaced by one it takes', () => {
    start();
    const file = join(cacheDir, caches()[0]);
    const garbage = Buffer.alloc(statSync(file).size, 7);
    writeFileSync(file, garbage);
    expect(start()).toMatchObject({ twice: 42, saved: true });
    expect(readFileSync(file).equals(garbage)).toBe(false);
    expect(start().saved).toBe(false);
  });

  it('another build of the bundle gets a cache of its own', () => {
    start();
    writeFileSync(bundle, `${readFileSync(bundle, 'utf8')}\n// changed\n`);
    expect(start().saved).toBe(true);
    expect(caches()).toHaveLength(2);
  });

  it('a start runs from the cache shipped beside the bundle and saves nothing', () => {
    start();
    renameSync(join(cacheDir, caches()[0]), join(dir, 'app.v8cache'));
    expect(start()).toMatchObject({ twice: 42, saved: false });
    expect(caches()).toEqual([]);
  });

  it("a shipped cache V8 refuses costs one save, then this machine's cache is used", () => {
    writeFileSync(join(dir, 'app.v8cache'), Buffer.alloc(4096, 7));
    expect(start().saved).toBe(true);
    expect(caches()).toHaveLength(1);
    expect(start().saved).toBe(false);
  });

  it("a machine's cache V8 refuses gives way to the shipped one, and is removed", () => {
    start();
    const saved = caches()[0];
    renameSync(join(cacheDir, saved), join(dir, 'app.v8cache'));
    writeFileSync(join(cacheDir, saved), Buffer.alloc(4096, 7));
    expect(start()).toMatchObject({ twice: 42, saved: false });
    expect(caches()).toEqual([]);
  });

  it('a folder that cannot be written costs the saving, never the start', () => {
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, '');
    cacheDir = join(blocked, 'cache');
    expect(start()).toMatchObject({ twice: 42, saved: false });
  });
});
