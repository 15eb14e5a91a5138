/**
 * The production entry (dist/service/main.js once bundled): it prepares the
 * runtime, then loads the service. It must stay tiny, since V8 compiles it
 * before the compile cache below can help.
 */
import { enableCompileCache } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Source maps stay off: Node keeps a parsed map for the life of the
// process once a stack trace goes through it, and the first traces (an
// upstream failure logged) grew RSS by 55 MB in the upstream-faults suite,
// beside a 128 MB old generation. The bundle keeps its names and lines
// readable instead; NODE_OPTIONS=--enable-source-maps turns the map
// (dist/service/app.js.map) on when the TypeScript positions are worth it.

// V8's compiled code for the bundle, kept between starts of the same image:
// about a seventh of the start-up CPU. NODE_COMPILE_CACHE picks the folder
// (Node reads it itself); else the temporary folder, which the pod mounts
// as a writable emptyDir. A folder that cannot be written only costs the
// saving: Node reports the failure in the return value and runs on.
if (!process.env.NODE_COMPILE_CACHE) {
  try {
    enableCompileCache(join(tmpdir(), 'workspace-api-compile-cache'));
  } catch {
    // Never a reason not to start.
  }
}

// The bundle step points this at the bundled service.
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('../main');
