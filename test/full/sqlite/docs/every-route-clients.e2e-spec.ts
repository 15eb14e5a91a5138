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
 * orval generate from client/openapi.json with their default options; a
 * task's body is one of the task types, each with the `input` it requires
 * (`{type: "logo"}` alone does not compile), and a stream's items are the
 * events, told apart by `type`, with their statuses as literal types.
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

/** Each generator's task body and stream item types, from calls/generated. */
const TYPES_OF: Record<string, string> = {
  'openapi-typescript': [
    "import type { paths } from './generated/workspace-api';",
    "type Body = NonNullable<paths['/api/projects/{id}/tasks']['post']['requestBody']>['content']['application/json'];",
    "type StreamEvent = paths['/api/events']['get']['responses'][200]['content']['text/event-stream'];",
  ].join('\n'),
  '@hey-api/openapi-ts':
    "import type { CreateTaskDto as Body, StreamEventDto as StreamEvent } from './generated/hey/types.gen';",
  orval:
    "import type { CreateTaskDto as Body, StreamEventDto as StreamEvent } from './generated/orval/api';",
};

/** Code every generated client must accept. */
const ACCEPTED = `
export const bodies: Body[] = [
  { type: 'logo', input: { companyName: 'Acme', style: 'modern', colors: ['#0044ff'] } },
  { type: 'logo-edit', input: { assetId: '019aa8f3-0b4e-7a21-8c3d-5e6f7a8b9c0d', instructions: 'Bolder' } },
  { type: 'marketing-copy' },
  { type: 'landing-page' },
  { type: 'brand-kit' },
  { type: 'wireframe' },
  { type: 'wireframe', input: { pages: ['home', 'pricing'], notes: 'Three plans' } },
  { type: 'icon-set', input: { names: ['search', 'cart'], style: 'duotone' } },
  { type: 'graphics', input: { formats: ['og', 'hero'], headline: 'Launch day' } },
];
export function statusOf(event: StreamEvent): string | undefined {
  if (event.type === 'task.updated') return event.data.task?.status ?? event.data.status;
  if (event.type === 'asset.created') return event.data.asset?.url;
  if (event.type === 'reset') return event.reason;
  return undefined;
}`;

/** Code every generated client must refuse, each on its own. */
const REFUSED: Record<string, string> = {
  'a logo task without input': `export const body: Body = { type: 'logo' };`,
  'a logo-edit task without input': `export const body: Body = { type: 'logo-edit' };`,
  'a wireframe task whose pages are not a list': `export const body: Body = { type: 'wireframe', input: { pages: 'home' } };`,
  'an icon-set task without input': `export const body: Body = { type: 'icon-set' };`,
  'a task type that does not exist': `export const body: Body = { type: 'poem' };`,
  'a task status that does not exist': `export const done = (event: StreamEvent) => event.type === 'task.updated' && event.data.status === 'DONE';`,
};

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

  it.each(Object.keys(TYPES_OF))(
    '%s: every task type with the input it needs, and typed stream items, compile; what the server refuses does not',
    (generator) => {
      const imports = TYPES_OF[generator];
      const write = (name: string, code: string) => {
        const file = join(dir, 'calls', `${name.replace(/\W/g, '-')}.ts`);
        writeFileSync(file, `${imports}\n${code}\n`);
        return file;
      };
      const accepted = write(`accepted-${generator}`, ACCEPTED);
      expect(strictDiagnostics([accepted], dir)).toEqual([]);
      for (const [what, code] of Object.entries(REFUSED)) {
        const refused = write(`refused-${generator}`, code);
        expect([what, strictDiagnostics([refused], dir).length > 0]).toEqual([
          what,
          true,
        ]);
      }
    },
    120_000,
  );
});
