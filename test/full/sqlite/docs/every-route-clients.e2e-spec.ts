import {
  cpSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  generateClients,
  strictDiagnostics,
} from '../../../support/generated-clients';
import { REPO_ROOT } from '../../../support/server-process';

/**
 * The OpenAPI document tells generators the truth: a call of every route,
 * written once per generator (test/client-usage/calls), compiles under
 * `strict` against the clients openapi-typescript, @hey-api/openapi-ts and
 * orval generate from client/openapi.json — and a call the server would
 * refuse does not compile.
 */

const CALLS = join(REPO_ROOT, 'test', 'client-usage', 'calls');
const DOCUMENT = join(REPO_ROOT, 'client', 'openapi.json');

interface Operation {
  operationId: string;
}
type Document = { paths: Record<string, Record<string, Operation>> };

function operationIds(document: Document): string[] {
  return Object.values(document.paths)
    .flatMap((item) => Object.values(item).map((op) => op.operationId))
    .sort();
}

/** The methods of WorkspaceCalls: one per operation it calls. */
function calledOperations(): string[] {
  const source = readFileSync(join(CALLS, 'workspace-calls.ts'), 'utf8');
  const body = /export interface WorkspaceCalls \{([\s\S]*?)\n\}/.exec(source)!;
  return [...body[1].matchAll(/^ {2}(\w+)\(/gm)].map(([, name]) => name).sort();
}

describe('clients of three generators calling every route', () => {
  let dir: string;
  const document = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as Document;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'every-route-'));
    cpSync(CALLS, join(dir, 'calls'), { recursive: true });
    generateClients(
      document,
      join(dir, 'calls', 'generated'),
      'https://api.example.com',
    );
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has a call for every operation of the document, and none it lacks', () => {
    expect(calledOperations()).toEqual(operationIds(document));
  });

  it('compiles every call with each generator under strict TypeScript', () => {
    const files = ['openapi-fetch.ts', 'hey-api.ts', 'orval.ts'].map((name) =>
      join(dir, 'calls', name),
    );
    expect(strictDiagnostics(files, dir)).toEqual([]);
  }, 120_000);

  it('does not compile a logo task without its input, with any generator', () => {
    const file = join(dir, 'calls', 'refused.ts');
    writeFileSync(
      file,
      [
        "import type { paths } from './generated/workspace-api';",
        "import type { CreateTaskData } from './generated/hey/types.gen';",
        "import type { CreateTaskDto } from './generated/orval/api';",
        "type Body = paths['/api/projects/{id}/tasks']['post']['requestBody']['content']['application/json'];",
        "export const a: Body = { type: 'logo' };",
        "export const b: CreateTaskData['body'] = { type: 'logo' };",
        "export const c: CreateTaskDto = { type: 'logo' };",
        '',
      ].join('\n'),
    );
    const errors = strictDiagnostics([file], dir);
    expect(errors.filter((e) => e.includes('refused.ts(5'))).toHaveLength(1);
    expect(errors.filter((e) => e.includes('refused.ts(6'))).toHaveLength(1);
    expect(errors.filter((e) => e.includes('refused.ts(7'))).toHaveLength(1);
  }, 120_000);
});
