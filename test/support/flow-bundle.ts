import { buildSync } from 'esbuild';
import { join } from 'node:path';
import { REPO_ROOT } from './server-process';

/**
 * The browser flow of test/client-usage/calls as one script for a page:
 * `calls` is a copy of that folder with the clients generated into its
 * `generated/`. The script defines `globalThis.workspaceFlow` (runFlow).
 */
export function bundleFlow(calls: string): string {
  const result = buildSync({
    entryPoints: [join(calls, 'browser-flow.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'workspaceFlow',
    platform: 'browser',
    target: 'chrome120',
    // The copy lives in a temporary folder: packages come from here.
    nodePaths: [join(REPO_ROOT, 'node_modules')],
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}
