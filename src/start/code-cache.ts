import {
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { constants, Script } from 'node:vm';

/**
 * The bundled service run from V8's compiled code of an earlier start.
 *
 * Node's own compile cache (`module.enableCompileCache()`) writes a file's
 * code cache as the file is compiled, before it runs: for a bundle, whose
 * modules are all functions V8 compiles lazily, that holds little more
 * than the top level (2.4 MB for the 9.6 MB bundle). Taken after the
 * warm-up instead, the cache holds every function the start-up and the
 * request paths compiled (7.8 MB), and the next start skips compiling
 * them: about 150 ms less to `/health/ready` (docs/performance.md).
 */

/** The key under which the loaded bundle offers to save its cache. */
const SAVE_HOOK = Symbol.for('workspace-api.saveCompiledCode');

type SaveHook = () => void;

/**
 * Loads `file` (a CommonJS bundle) as `require(file)` would, from V8's
 * compiled code when a cache matches it, and leaves a hook that saves a
 * fresh one in `cacheDir` (saveCompiledCode below) when none did. Two
 * caches are looked for: one this machine saved in `cacheDir` (written
 * only when the shipped one was missing or V8 refused it), else the one
 * the build shipped beside the bundle (`app.v8cache` beside `app.js`,
 * scripts/prime-code-cache.ts).
 */
export function requireWithCodeCache(file: string, cacheDir: string): unknown {
  const { size, mtimeMs } = statSync(file);
  // V8 checks a cache against its version, flags and the source's
  // length; the size and time of the file tell one build from another.
  const cacheFile = join(
    cacheDir,
    `${basename(file, '.js')}-${size}-${Math.trunc(mtimeMs)}.v8cache`,
  );
  quietLoaderWarning();
  const { script, fromCache } = compileBundle(file, cacheFile);
  if (!fromCache) {
    const save: SaveHook = () => {
      mkdirSync(cacheDir, { recursive: true });
      const partial = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(partial, script.createCachedData());
      // Whole or absent: another process starting meanwhile reads either.
      renameSync(partial, cacheFile);
    };
    (globalThis as Record<symbol, unknown>)[SAVE_HOOK] = save;
  }
  const bundle = new Module(file, module);
  bundle.filename = file;
  bundle.paths = (
    Module as unknown as { _nodeModulePaths(from: string): string[] }
  )._nodeModulePaths(dirname(file));
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: Module,
    filename: string,
    dirname: string,
  ) => void;
  run.call(
    bundle.exports,
    bundle.exports,
    createRequire(file),
    bundle,
    file,
    dirname(file),
  );
  bundle.loaded = true;
  return bundle.exports;
}

/**
 * The bundle compiled with the first cache V8 takes: this machine's
 * (`cacheFile`), then the shipped one; from source when neither.
 */
function compileBundle(
  file: string,
  cacheFile: string,
): { script: Script; fromCache: boolean } {
  const source = Module.wrap(readFileSync(file, 'utf8'));
  const compile = (cachedData?: Buffer) =>
    new Script(source, {
      filename: file,
      cachedData,
      // The bundle's import() calls resolve as they would under require.
      importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
  for (const candidate of [cacheFile, shippedCodeCache(file)]) {
    const cachedData = readIfThere(candidate);
    if (!cachedData) continue;
    const script = compile(cachedData);
    if (!script.cachedDataRejected) return { script, fromCache: true };
    // Made under other flags or another Node.js: it would only be
    // refused again at every start.
    if (candidate === cacheFile) rmSync(candidate, { force: true });
  }
  return { script: compile(), fromCache: false };
}

/** The cache the build ships beside a bundle: `app.js` → `app.v8cache`. */
export function shippedCodeCache(file: string): string {
  return join(dirname(file), `${basename(file, '.js')}.v8cache`);
}

function readIfThere(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Node marks the main context's loader option experimental and says so
 * on the bundle's first `import()`: a line on every start's stderr that
 * no operator can act on (the option is the only way to let a script
 * compiled with a code cache import as `require` would). That one
 * warning is dropped; every other goes on as before.
 */
function quietLoaderWarning(): void {
  const emit = process.emitWarning.bind(process) as (
    ...args: unknown[]
  ) => void;
  process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.includes('USE_MAIN_CONTEXT_DEFAULT_LOADER')) return;
    emit(warning, ...rest);
  };
}

/**
 * Saves the compiled code of the bundle, when it started without a cache
 * that matched (a no-op otherwise, and outside the bundle). Called once,
 * after the warm-up and before readiness: the cache then holds the request
 * paths, and its cost (tens of ms, first start only) is paid before any
 * traffic. A folder that cannot be written costs the saving, never the
 * start. True when a cache was written.
 */
export function saveCompiledCode(): boolean {
  const hooks = globalThis as Record<symbol, unknown>;
  const save = hooks[SAVE_HOOK] as SaveHook | undefined;
  if (!save) return false;
  delete hooks[SAVE_HOOK];
  try {
    save();
    return true;
  } catch {
    // Never a reason not to serve.
    return false;
  }
}
