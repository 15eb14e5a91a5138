/**
 * Imported first by main.ts, before Nest or anything else loads: refuses,
 * in one line, to run the service on the wrong Node.js (see
 * runtime/runtime-refusal.ts). A module of its own, with Node built-ins
 * only, so that it stays first whatever builds or bundles the entry.
 */
import { runtimeRefusal } from './runtime/runtime-refusal';

const refusal = runtimeRefusal(process.version, process.execPath);
if (refusal !== undefined) {
  console.error(refusal);
  process.exit(1);
}
