import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';
import { REPO_ROOT } from '../../../support/server-process';

/**
 * What the types of clients generated from client/openapi.json let a
 * program write, under strict TypeScript: a task's body is one of the task
 * types, each with the `input` it requires (`{type: "logo"}` without one
 * does not compile), and a stream's items are the events, told apart by
 * `type`, with their statuses as literal types. For the three generators
 * frontend teams use: openapi-typescript (the committed
 * client/workspace-api.ts), @hey-api/openapi-ts and orval.
 */

const OPENAPI_FILE = join(REPO_ROOT, 'client', 'openapi.json');
const NODE_MODULES = join(REPO_ROOT, 'node_modules');

function run(args: string[], cwd: string, what: string): void {
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${what} failed: ${result.stderr}${result.stdout}`);
  }
}

/** Where each generator's types are imported from, and their names. */
interface Generated {
  imports: string;
}

function generateHeyApi(dir: string): Generated {
  mkdirSync(dir, { recursive: true });
  run(
    [
      join(NODE_MODULES, '@hey-api', 'openapi-ts', 'bin', 'run.js'),
      '-i',
      OPENAPI_FILE,
      '-o',
      join(dir, 'sdk'),
      '-c',
      '@hey-api/client-fetch',
      '--no-log-file',
      '-s',
    ],
    dir,
    'openapi-ts',
  );
  return {
    imports:
      "import type { CreateTaskDto as Body, StreamEventDto as StreamEvent } from './sdk/types.gen';",
  };
}

function generateOrval(dir: string): Generated {
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'orval.config.js');
  writeFileSync(
    config,
    `module.exports = ${JSON.stringify({
      api: {
        input: { target: OPENAPI_FILE },
        output: {
          target: join(dir, 'api.ts'),
          client: 'fetch',
          baseUrl: 'http://127.0.0.1',
        },
      },
    })};\n`,
  );
  run(
    [
      join(NODE_MODULES, 'orval', 'dist', 'bin', 'orval.mjs'),
      '--config',
      config,
    ],
    dir,
    'orval',
  );
  return {
    imports:
      "import type { CreateTaskDto as Body, StreamEventDto as StreamEvent } from './api';",
  };
}

function openapiTypescript(dir: string): Generated {
  mkdirSync(dir, { recursive: true });
  const types = JSON.stringify(join(REPO_ROOT, 'client', 'workspace-api'));
  return {
    imports: [
      `import type { paths } from ${types};`,
      "type Body = NonNullable<paths['/api/projects/{id}/tasks']['post']['requestBody']>['content']['application/json'];",
      "type StreamEvent = paths['/api/events']['get']['responses'][200]['content']['text/event-stream'];",
    ].join('\n'),
  };
}

/** Code every generated client must accept. */
const ACCEPTED = `
export const bodies: Body[] = [
  { type: 'logo', input: { companyName: 'Acme', style: 'modern', colors: ['#0044ff'] } },
  { type: 'logo-edit', input: { assetId: '019aa8f3-0b4e-7a21-8c3d-5e6f7a8b9c0d', instructions: 'Bolder' } },
  { type: 'marketing-copy' },
  { type: 'landing-page' },
  { type: 'brand-kit' },
];
export function statusOf(event: StreamEvent): string | undefined {
  if (event.type === 'task.updated') return event.data.task?.status ?? event.data.status;
  if (event.type === 'asset.created') return event.data.asset?.url;
  if (event.type === 'reset') return event.reason;
  return undefined;
}
`;

/** Code every generated client must refuse, each on its own. */
const REFUSED: Record<string, string> = {
  'a logo task without input': `export const body: Body = { type: 'logo' };`,
  'a logo-edit task without input': `export const body: Body = { type: 'logo-edit' };`,
  'a task type that does not exist': `export const body: Body = { type: 'poem' };`,
  'a task status that does not exist': `export const done = (event: StreamEvent) => event.type === 'task.updated' && event.data.status === 'DONE';`,
};

/** The errors strict TypeScript finds in each file (by name) of `dir`. */
function compile(dir: string, files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, `${name}.ts`), text);
  }
  const roots = Object.keys(files).map((name) => join(dir, `${name}.ts`));
  const program = ts.createProgram(roots, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
  });
  return Object.fromEntries(
    Object.keys(files).map((name, index) => [
      name,
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(roots[index]))
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    ]),
  );
}

describe('the types of generated clients, under strict TypeScript', () => {
  let dir: string;
  const generated: Record<string, Generated> = {};

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'generated-client-types-'));
    generated['openapi-typescript'] = openapiTypescript(join(dir, 'oat'));
    generated['@hey-api/openapi-ts'] = generateHeyApi(join(dir, 'hey'));
    generated.orval = generateOrval(join(dir, 'orval'));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['openapi-typescript', '@hey-api/openapi-ts', 'orval'])(
    '%s: every task type with the input it needs, and typed stream items, compile; a logo task without input does not',
    (name) => {
      const { imports } = generated[name];
      const where = {
        'openapi-typescript': 'oat',
        '@hey-api/openapi-ts': 'hey',
        orval: 'orval',
      }[name]!;
      const files: Record<string, string> = {
        accepted: `${imports}\n${ACCEPTED}`,
      };
      Object.values(REFUSED).forEach((code, index) => {
        files[`refused-${index}`] = `${imports}\n${code}\n`;
      });
      const errors = compile(join(dir, where), files);
      expect(errors.accepted).toEqual([]);
      Object.keys(REFUSED).forEach((what, index) => {
        expect([what, errors[`refused-${index}`].length > 0]).toEqual([
          what,
          true,
        ]);
      });
    },
    120_000,
  );
});
