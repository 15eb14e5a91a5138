import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';
import { REPO_ROOT } from '../../../support/server-process';

/**
 * The TypeScript examples of docs/api.md compile, under `strict`, against
 * clients generated from client/openapi.json by the generator versions in
 * package.json. An example is checked when an HTML comment
 * `<!-- snippet: NAME -->` stands right before its code block; NAME says
 * which client it uses (openapi-fetch, hey-api, orval, fetch, eventsource).
 */

const DOCS_FILE = join(REPO_ROOT, 'docs', 'api.md');
const MARKED_BLOCK = /<!-- snippet: ([\w-]+) -->\n+```ts\n([\s\S]*?)\n```/g;
const KNOWN_CLIENTS = [
  'openapi-fetch',
  'hey-api',
  'orval',
  'fetch',
  'eventsource',
];

/**
 * What the examples take from the page around them: the caller's token,
 * a project id, and the project kept from an earlier answer with its ETag.
 */
const CONTEXT = `declare const token: string;
declare const id: string;
declare let cached: { project: unknown; etag: string };
`;

interface Snippet {
  client: string;
  code: string;
}

function markedSnippets(): Snippet[] {
  const text = readFileSync(DOCS_FILE, 'utf8');
  return [...text.matchAll(MARKED_BLOCK)].map(([, client, code]) => ({
    client,
    code,
  }));
}

/**
 * An example as a module: its imports on top, the rest in an async
 * function, since examples `return` and `await` as the body of a caller.
 */
function asModule(snippet: Snippet): string {
  const lines = snippet.code.split('\n');
  const lastImport = lines.findLastIndex((line) =>
    /(^import |\bfrom )'[^']+';$/.test(line),
  );
  const split = lastImport + 1;
  return [
    ...lines.slice(0, split),
    CONTEXT,
    'export async function example(): Promise<unknown> {',
    ...lines.slice(split),
    '  return undefined;',
    '}',
    '',
  ].join('\n');
}

function run(command: string[], cwd: string): void {
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

describe('the TypeScript examples of docs/api.md', () => {
  let dir: string;
  const snippets = markedSnippets();

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'docs-snippets-'));
    copyFileSync(
      join(REPO_ROOT, 'client', 'openapi.json'),
      join(dir, 'openapi.json'),
    );
    copyFileSync(
      join(REPO_ROOT, 'client', 'workspace-api.ts'),
      join(dir, 'workspace-api.ts'),
    );
    run(
      [
        join(
          REPO_ROOT,
          'node_modules',
          '@hey-api',
          'openapi-ts',
          'bin',
          'run.js',
        ),
        '-i',
        'openapi.json',
        '-o',
        'client',
        '-c',
        '@hey-api/client-fetch',
        '--no-log-file',
        '-s',
      ],
      dir,
    );
    writeFileSync(
      join(dir, 'orval.config.cjs'),
      `module.exports = ${JSON.stringify({
        api: {
          input: { target: './openapi.json' },
          output: {
            target: './api.ts',
            client: 'fetch',
            baseUrl: 'https://api.example.com',
          },
        },
      })};\n`,
    );
    run(
      [
        join(REPO_ROOT, 'node_modules', 'orval', 'dist', 'bin', 'orval.mjs'),
        '--config',
        'orval.config.cjs',
      ],
      dir,
    );
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('marks an example for each of the three generated clients', () => {
    const clients = snippets.map((snippet) => snippet.client);
    for (const client of ['openapi-fetch', 'hey-api', 'orval']) {
      expect(clients).toContain(client);
    }
    for (const client of clients) expect(KNOWN_CLIENTS).toContain(client);
  });

  it('compiles every marked example with strict type checking', () => {
    const files = snippets.map((snippet, index) => {
      const file = join(dir, `example-${index}-${snippet.client}.ts`);
      writeFileSync(file, asModule(snippet));
      return file;
    });
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
    const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) =>
      ts.formatDiagnostic(diagnostic, {
        getCanonicalFileName: (name) => name,
        getCurrentDirectory: () => dir,
        getNewLine: () => '\n',
      }),
    );
    expect(errors).toEqual([]);
  }, 120_000);
});
