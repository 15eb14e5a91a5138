import { exportJWK, generateKeyPair } from 'jose';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createClient, { type Middleware } from 'openapi-fetch';
import * as ts from 'typescript';
import type { paths } from '../../../../client/workspace-api';
import {
  generateHeyApi,
  generateOrval,
} from '../../../support/generated-clients';
import { DevAuthProviderProcess } from '../../../support/dev-auth-provider-process';
import { listen } from '../../../support/pending-request';
import { REPO_ROOT } from '../../../support/server-process';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Clients generated from the committed client/openapi.json, as frontend
 * teams generate them, against a running service with AUTH_MODE=oidc and
 * tokens of the dev OpenID Provider: openapi-typescript's types with
 * openapi-fetch, an SDK of @hey-api/openapi-ts (which sends a token only
 * on operations whose `security` names the bearer scheme), and orval's
 * fetch client.
 */

const OPENAPI_FILE = join(REPO_ROOT, 'client', 'openapi.json');

interface HeyAnswer {
  data?: unknown;
  error?: unknown;
  response: Response;
}
type HeyOperation = (options?: Record<string, unknown>) => Promise<HeyAnswer>;
interface HeySdk {
  client: { setConfig(config: Record<string, unknown>): void };
  listProjects: HeyOperation;
  createProject: HeyOperation;
  getProject: HeyOperation;
  updateProject: HeyOperation;
  deleteProject: HeyOperation;
}

/**
 * Generates a fetch SDK with @hey-api/openapi-ts (an ES module CLI, so in a
 * child process) and compiles it to CommonJS for this test to load.
 */
function generateHeyApiSdk(document: object, dir: string): HeySdk {
  const input = join(dir, 'openapi.json');
  const output = join(dir, 'sdk');
  mkdirSync(dir, { recursive: true });
  writeFileSync(input, JSON.stringify(document));
  generateHeyApi(dir, input, output);
  compileToCommonJs(output);
  /* eslint-disable @typescript-eslint/no-require-imports */
  return {
    ...(require(join(output, 'sdk.gen.js')) as Omit<HeySdk, 'client'>),
    client: (require(join(output, 'client.gen.js')) as Pick<HeySdk, 'client'>)
      .client,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

interface OrvalAnswer {
  data: unknown;
  status: number;
  headers: Headers;
}
interface OrvalApi {
  listProjects(params?: object, init?: RequestInit): Promise<OrvalAnswer>;
  createProject(body: object, init?: RequestInit): Promise<OrvalAnswer>;
  getProject(id: string, init?: RequestInit): Promise<OrvalAnswer>;
  updateProject(
    id: string,
    body: object,
    init?: RequestInit,
  ): Promise<OrvalAnswer>;
  deleteProject(id: string, init?: RequestInit): Promise<OrvalAnswer>;
}

/** Generates orval's fetch client for `baseUrl`, compiled to CommonJS. */
function generateOrvalClient(
  document: object,
  dir: string,
  baseUrl: string,
): OrvalApi {
  mkdirSync(dir, { recursive: true });
  const input = join(dir, 'openapi.json');
  const output = join(dir, 'api.ts');
  writeFileSync(input, JSON.stringify(document));
  generateOrval(dir, input, output, baseUrl);
  compileToCommonJs(dir);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(dir, 'api.js')) as OrvalApi;
}

function compileToCommonJs(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) compileToCommonJs(path);
    else if (entry.name.endsWith('.ts')) {
      const { outputText } = ts.transpileModule(readFileSync(path, 'utf8'), {
        compilerOptions: {
          module: ts.ModuleKind.CommonJS,
          target: ts.ScriptTarget.ES2022,
        },
      });
      writeFileSync(path.replace(/\.ts$/, '.js'), outputText);
    }
  }
}

describe('clients generated from client/openapi.json, against AUTH_MODE=oidc', () => {
  let dir: string;
  let provider: DevAuthProviderProcess;
  let t: TestApp;
  let base: string;
  let token: string;
  let document: { paths: Record<string, Record<string, unknown>> };
  let sdk: HeySdk;
  let dropping: HeySdk;
  let orval: OrvalApi;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'generated-clients-'));
    document = JSON.parse(
      readFileSync(OPENAPI_FILE, 'utf8'),
    ) as typeof document;
    // Every client is generated before the first request: a pause of
    // seconds between requests (generating takes that long on a busy
    // machine) let fetch reuse a keep-alive connection the server was
    // closing at that moment, and the call failed with a TypeError.
    sdk = generateHeyApiSdk(document, join(dir, 'hey'));
    const emptied = structuredClone(document);
    for (const item of Object.values(emptied.paths)) {
      for (const operation of Object.values(item)) {
        (operation as { security?: unknown }).security = [];
      }
    }
    dropping = generateHeyApiSdk(emptied, join(dir, 'hey-empty'));
    const { privateKey } = await generateKeyPair('RS256', {
      extractable: true,
    });
    provider = await DevAuthProviderProcess.start({
      ...(await exportJWK(privateKey)),
      kid: 'generated-clients',
      alg: 'RS256',
      use: 'sig',
    });
    t = await createTestApp({
      AUTH_MODE: 'oidc',
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
      AUTH_ISSUER: provider.issuer,
      AUTH_AUDIENCE: 'workspace-api',
    });
    base = await listen(t);
    orval = generateOrvalClient(document, join(dir, 'orval'), base);
    token = await provider.token('dana');
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await provider?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe('@hey-api/openapi-ts (fetch client)', () => {
    beforeAll(() => {
      sdk.client.setConfig({ baseUrl: base, auth: () => token });
    });

    it('sends the configured token: list, create without userId, 304 with If-None-Match, PATCH with If-Match, delete', async () => {
      const list = await sdk.listProjects();
      expect(list.response.status).toBe(200);

      const created = await sdk.createProject({
        body: { name: 'From hey-api' },
      });
      expect(created.response.status).toBe(201);
      const project = (
        created.data as { project: { id: string; userId: string } }
      ).project;
      expect(project.userId).toBe('dana');
      expect(created.response.headers.get('Location')).toBe(
        `${base}/api/projects/${project.id}`,
      );

      const unchanged = await sdk.getProject({
        path: { id: project.id },
        headers: { 'If-None-Match': '"1"' },
      });
      // Not a 2xx: the SDK reports it as an error without a body; a client
      // checks the status first (docs/api.md, "For a frontend developer").
      expect(unchanged.response.status).toBe(304);
      expect(unchanged.data).toBeUndefined();

      const patched = await sdk.updateProject({
        path: { id: project.id },
        headers: { 'If-Match': '"1"' },
        body: { name: 'Renamed by hey-api' },
      });
      expect(patched.response.status).toBe(200);
      expect(patched.response.headers.get('ETag')).toBe('"2"');

      const deleted = await sdk.deleteProject({ path: { id: project.id } });
      expect(deleted.response.status).toBe(200);
    });

    it('is refused (401) without a token, so the 200s above were the token', async () => {
      const answer = await sdk.listProjects({ auth: undefined, security: [] });
      expect(answer.response.status).toBe(401);
      expect(answer.error).toEqual({
        error: 'Unauthorized',
        code: expect.any(String),
      });
    });

    it('drops the token when optional authentication is written `security: []`, the form this document must not use', async () => {
      dropping.client.setConfig({ baseUrl: base, auth: () => token });
      const answer = await dropping.listProjects();
      expect([answer.response?.status, answer.error]).toEqual([
        401,
        { error: 'Unauthorized', code: 'unauthorized' },
      ]);
    });
  });

  describe('orval (fetch client)', () => {
    const as = (headers: Record<string, string> = {}): RequestInit => ({
      headers: { Authorization: `Bearer ${token}`, ...headers },
    });

    it('sends the token given with each call: list, create without userId, 304 with If-None-Match, PATCH with If-Match, delete', async () => {
      expect((await orval.listProjects(undefined, as())).status).toBe(200);

      const created = await orval.createProject({ name: 'From orval' }, as());
      expect(created.status).toBe(201);
      const project = (
        created.data as { project: { id: string; userId: string } }
      ).project;
      expect(project.userId).toBe('dana');

      const unchanged = await orval.getProject(
        project.id,
        as({ 'If-None-Match': '"1"' }),
      );
      // orval reads no body for a 304 and hands back an empty object.
      expect(unchanged.status).toBe(304);
      expect(unchanged.data).toEqual({});

      const patched = await orval.updateProject(
        project.id,
        { name: 'Renamed by orval' },
        as({ 'If-Match': '"1"' }),
      );
      expect(patched.status).toBe(200);
      expect(patched.headers.get('ETag')).toBe('"2"');

      expect((await orval.deleteProject(project.id, as())).status).toBe(200);
    });

    it('is refused (401) without the token, so the 200s above were the token', async () => {
      const answer = await orval.listProjects();
      expect(answer.status).toBe(401);
      expect(answer.data).toEqual({
        error: 'Unauthorized',
        code: expect.any(String),
      });
    });
  });

  describe('openapi-typescript types with openapi-fetch', () => {
    const client = createClient<paths>();
    const bearer: Middleware = {
      onRequest({ request }) {
        request.headers.set('Authorization', `Bearer ${token}`);
        return request;
      },
    };

    beforeAll(() => {
      client.use(bearer);
    });

    it('sends the token: list, create without userId, 304 with If-None-Match, PATCH with If-Match, delete', async () => {
      const list = await client.GET('/api/projects', { baseUrl: base });
      expect(list.response.status).toBe(200);

      const created = await client.POST('/api/projects', {
        baseUrl: base,
        // The committed document is the one of a server without
        // authentication, where userId is required; a token fills it in.
        body: { name: 'From openapi-fetch' } as {
          name: string;
          userId: string;
        },
      });
      expect(created.response.status).toBe(201);
      const id = created.data!.project.id;
      expect(created.data!.project.userId).toBe('dana');

      const unchanged = await client.GET('/api/projects/{id}', {
        baseUrl: base,
        params: { path: { id }, header: { 'If-None-Match': '"1"' } },
      });
      expect(unchanged.response.status).toBe(304);
      expect(unchanged.data).toBeUndefined();

      const patched = await client.PATCH('/api/projects/{id}', {
        baseUrl: base,
        params: { path: { id }, header: { 'If-Match': '"1"' } },
        body: { name: 'Renamed by openapi-fetch' },
      });
      expect(patched.response.status).toBe(200);
      expect(patched.data!.project.name).toBe('Renamed by openapi-fetch');

      const deleted = await client.DELETE('/api/projects/{id}', {
        baseUrl: base,
        params: { path: { id } },
      });
      expect(deleted.data).toEqual({ success: true });
    });

    it('is refused (401) without the middleware, so the 200s above were the token', async () => {
      const bare = createClient<paths>({ baseUrl: base });
      const answer = await bare.GET('/api/projects');
      expect(answer.response.status).toBe(401);
      expect(answer.error).toEqual({
        error: 'Unauthorized',
        code: expect.any(String),
      });
    });
  });
});
