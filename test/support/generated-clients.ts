import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { REPO_ROOT } from './server-process';

/**
 * The three clients frontend teams generate from the OpenAPI document, made
 * as they make them (each generator's own CLI, the versions pinned in
 * package.json) into one folder:
 * - `workspace-api.ts`: openapi-typescript's types, for openapi-fetch;
 * - `hey/`: an SDK of @hey-api/openapi-ts on its fetch client;
 * - `orval/api.ts`: orval's fetch client.
 */
export interface GeneratedClients {
  dir: string;
  openapiTypes: string;
  heyApi: string;
  orval: string;
}

const BIN = {
  openapiTypescript: join(
    REPO_ROOT,
    'node_modules',
    'openapi-typescript',
    'bin',
    'cli.js',
  ),
  heyApi: join(
    REPO_ROOT,
    'node_modules',
    '@hey-api',
    'openapi-ts',
    'bin',
    'run.js',
  ),
  orval: join(REPO_ROOT, 'node_modules', 'orval', 'dist', 'bin', 'orval.mjs'),
};

/** Runs a generator's CLI on this Node; its output is in the error. */
export function runCli(command: string[], cwd: string): void {
  const result = spawnSync(process.execPath, command, {
    cwd,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(
      `${command[0]} failed: ${result.stderr}${result.stdout}`.slice(0, 4000),
    );
  }
}

/**
 * Generates the three clients of `document` into `dir`; orval's client
 * calls `baseUrl` (the other two take theirs at run time).
 */
export function generateClients(
  document: object,
  dir: string,
  baseUrl: string,
): GeneratedClients {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
  runCli(
    [BIN.openapiTypescript, 'openapi.json', '-o', 'workspace-api.ts'],
    dir,
  );
  generateHeyApi(dir, 'openapi.json', 'hey');
  generateOrval(dir, './openapi.json', './orval/api.ts', baseUrl);
  return {
    dir,
    openapiTypes: join(dir, 'workspace-api.ts'),
    heyApi: join(dir, 'hey'),
    orval: join(dir, 'orval', 'api.ts'),
  };
}

/** An SDK of @hey-api/openapi-ts (fetch client) from `input` into `output`, both under `dir`. */
export function generateHeyApi(
  dir: string,
  input: string,
  output: string,
): void {
  runCli(
    [
      BIN.heyApi,
      '-i',
      input,
      '-o',
      output,
      '-c',
      '@hey-api/client-fetch',
      '--no-log-file',
      '-s',
    ],
    dir,
  );
}

/** orval's fetch client of `input` as the file `target` (paths from `dir`), calling `baseUrl`. */
export function generateOrval(
  dir: string,
  input: string,
  target: string,
  baseUrl: string,
): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'orval.config.cjs'),
    `module.exports = ${JSON.stringify({
      api: {
        input: { target: input },
        output: { target, client: 'fetch', baseUrl },
      },
    })};\n`,
  );
  runCli([BIN.orval, '--config', 'orval.config.cjs'], dir);
}

/**
 * What `files` make TypeScript say under `strict`, as a browser app's
 * build checks them (DOM types, bundler resolution, packages from this
 * repository's node_modules). Empty when they compile.
 */
export function strictDiagnostics(files: string[], dir: string): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    skipLibCheck: true,
    typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
    paths: { '*': [join(REPO_ROOT, 'node_modules', '*')] },
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) =>
    ts.formatDiagnostic(diagnostic, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => dir,
      getNewLine: () => '\n',
    }),
  );
}
