/**
 * The production entry (dist/service/main.js once bundled): it prepares the
 * runtime, then loads the service. It must stay tiny, since V8 compiles it
 * before the compile cache below can help.
 */
import { existsSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireWithCodeCache } from './code-cache';

// Source maps stay off: Node keeps a parsed map for the life of the
// process once a stack trace goes through it, and the first traces (an
// upstream failure logged) grew RSS by 55 MB in the upstream-faults suite,
// beside a 128 MB old generation. The bundle keeps its names and lines
// readable instead; NODE_OPTIONS=--enable-source-maps turns the map
// (dist/service/app.js.map) on when the TypeScript positions are worth it.

// V8's compiled code, kept between starts of the same image in
// NODE_COMPILE_CACHE, else in the temporary folder, which the pod mounts as
// a writable emptyDir. A folder that cannot be written only costs the
// saving.
const cacheDir =
  process.env.NODE_COMPILE_CACHE ||
  join(tmpdir(), 'workspace-api-compile-cache');

// Node's own cache, file by file: the packages left outside the bundle
// (or every file, unbundled).
try {
  enableCompileCache(cacheDir);
} catch {
  // Never a reason not to start.
}

// Beside the bundled launcher, the bundled service: run from V8's code
// cache (the one the build shipped beside it, or one a start saved after
// its warm-up: code-cache.ts), unless NODE_DISABLE_COMPILE_CACHE turns
// every cache off. The bundle step points
// `require('../main')` at that same bundle.
const bundle = join(__dirname, 'app.js');
if (existsSync(bundle) && !process.env.NODE_DISABLE_COMPILE_CACHE) {
  requireWithCodeCache(bundle, cacheDir);
} else {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('../main');
}
