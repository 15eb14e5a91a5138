import {
  copyFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  generateHeyApi,
  generateOrval,
  strictDiagnostics,
} from '../../../support/generated-clients';
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
    generateHeyApi(dir, 'openapi.json', 'client');
    generateOrval(dir, './openapi.json', './api.ts', 'https://api.example.com');
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
    const errors = strictDiagnostics(files, dir);
    expect(errors).toEqual([]);
  }, 120_000);
});
