import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request, { type Response } from 'supertest';
import {
  REPO_ROOT,
  runToExit,
  startServer,
  type ExitResult,
  type ServerProcess,
} from '../../../support/server-process';
import {
  createTestDatabase,
  type TestDatabase,
} from '../../../support/test-database';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * The built server (`node dist/service/main.js`) as operators run it: a real
 * child process, configured by its environment. Needs `npm run build` first
 * (`npm test` builds before the e2e suites).
 */

const TEST_TIMEOUT_MS = 60_000;

const VALID_PROJECT = {
  name: 'Process parity',
  description: 'Created over real HTTP',
  userId: 'user-process',
};

const VALID_LOGO_REQUEST = {
  projectId: 'any-project',
  companyName: 'Acme',
  style: 'modern',
  colors: ['#112233', 'white'],
};

const SECTION_ORDER = [
  'LOGO',
  'ICONS',
  'GRAPHICS',
  'MARKETING',
  'WIREFRAME',
  'CODE',
  'TESTING',
  'DEPLOYMENT',
];

/** Just over the 1 MB default BODY_LIMIT, and otherwise a valid project. */
const OVERSIZED_PROJECT = JSON.stringify({
  ...VALID_PROJECT,
  description: 'x'.repeat(1024 * 1024 + 1),
});

/** Fields that differ between two servers for the same request. */
const VOLATILE_KEYS = new Set(['id', 'createdAt', 'updatedAt', 'projectId']);

function withoutVolatileFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutVolatileFields);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !VOLATILE_KEYS.has(key))
        .map(([key, item]) => [key, withoutVolatileFields(item)]),
    );
  }
  return value;
}

type Client = ReturnType<typeof request>;

interface Step {
  name: string;
  send: (client: Client) => request.Test;
  status: number;
  /** Checked on the real process; the app from AppModule must then agree. */
  check?: (res: Response) => void;
}

const PARITY_STEPS: Step[] = [
  {
    name: 'POST /api/projects with a valid body',
    send: (c) => c.post('/api/projects').send(VALID_PROJECT),
    status: 201,
    check: (res) => {
      expect(res.body.project.name).toBe(VALID_PROJECT.name);
      expect(res.body.project.sections).toHaveLength(8);
      expect(res.body.project.agents).toHaveLength(3);
    },
  },
  {
    name: "POST /api/projects with {name:''}",
    send: (c) => c.post('/api/projects').send({ name: '' }),
    status: 400,
    check: (res) => {
      expect(res.body.error).toBe('Invalid input');
      expect(Array.isArray(res.body.details)).toBe(true);
    },
  },
  {
    name: "POST /api/projects with 'not json' as application/json",
    send: (c) =>
      c
        .post('/api/projects')
        .set('Content-Type', 'application/json')
        .send('not json'),
    status: 500,
    check: (res) =>
      expect(res.body).toEqual({
        error: 'Failed to create project',
        code: expect.any(String),
      }),
  },
  {
    name: 'POST /api/projects with a JSON body sent as text/plain',
    send: (c) =>
      c
        .post('/api/projects')
        .set('Content-Type', 'text/plain')
        .send(JSON.stringify({ ...VALID_PROJECT, name: 'Sent as text' })),
    status: 201,
    check: (res) => expect(res.body.project.name).toBe('Sent as text'),
  },
  {
    name: 'GET /api/projects',
    send: (c) => c.get('/api/projects'),
    status: 200,
    check: (res) => expect(res.body.projects).toHaveLength(2),
  },
  {
    name: 'GET /api/projects/does-not-exist',
    send: (c) => c.get('/api/projects/does-not-exist'),
    status: 404,
    check: (res) =>
      expect(res.body).toEqual({
        error: 'Project not found',
        code: expect.any(String),
      }),
  },
  {
    name: 'PATCH /api/projects/does-not-exist',
    send: (c) => c.patch('/api/projects/does-not-exist').send({ name: 'x' }),
    status: 500,
    check: (res) =>
      expect(res.body).toEqual({
        error: 'Failed to update project',
        code: expect.any(String),
      }),
  },
  {
    name: 'DELETE /api/projects/does-not-exist',
    send: (c) => c.delete('/api/projects/does-not-exist'),
    status: 500,
    check: (res) =>
      expect(res.body).toEqual({
        error: 'Failed to delete project',
        code: expect.any(String),
      }),
  },
  {
    name: 'GET /api/ai/generate-logo',
    send: (c) => c.get('/api/ai/generate-logo'),
    status: 200,
    check: (res) => expect(res.body.status).toBe('not_configured'),
  },
  {
    name: 'POST /api/ai/generate-logo with a valid body and no key',
    send: (c) => c.post('/api/ai/generate-logo').send(VALID_LOGO_REQUEST),
    status: 500,
    check: (res) => {
      expect(res.body.success).toBe(false);
      expect(res.body.error).toContain('IMAGE_API_KEY');
    },
  },
  {
    name: "POST /api/ai/generate-logo with the body 'x'",
    send: (c) =>
      c
        .post('/api/ai/generate-logo')
        .set('Content-Type', 'application/json')
        .send('x'),
    status: 500,
    check: (res) => {
      expect(res.body.success).toBe(false);
      expect(typeof res.body.error).toBe('string');
    },
  },
  {
    name: 'GET /no-such-route',
    send: (c) => c.get('/no-such-route'),
    status: 404,
    check: (res) =>
      expect(res.body).toEqual({
        error: 'Not found',
        code: expect.any(String),
      }),
  },
  {
    name: 'POST /api/projects with a body over 1 MB',
    send: (c) =>
      c
        .post('/api/projects')
        .set('Content-Type', 'application/json')
        .send(OVERSIZED_PROJECT),
    status: 413,
    check: (res) => {
      expect(Object.keys(res.body)).toEqual(['error', 'code']);
      expect(typeof res.body.error).toBe('string');
    },
  },
];

/** Requests a client may send by mistake or on purpose. */
const BAD_INPUTS: Omit<Step, 'status' | 'check'>[] = [
  ...PARITY_STEPS.filter((step) => step.status >= 400),
  {
    name: 'PATCH with an unknown field',
    send: (c) =>
      c.patch('/api/projects/does-not-exist').send({ x_unknown_field: 1 }),
  },
  {
    name: 'PATCH with name null',
    send: (c) => c.patch('/api/projects/does-not-exist').send({ name: null }),
  },
  {
    name: 'GET with an id that looks like SQL',
    send: (c) => c.get(`/api/projects/${encodeURIComponent("' OR 1=1 --")}`),
  },
  {
    name: 'GET with a very long id',
    send: (c) => c.get(`/api/projects/${'9'.repeat(5000)}`),
  },
  {
    name: 'GET /api/projects with userId repeated',
    send: (c) => c.get('/api/projects?userId=a&userId=b'),
  },
  {
    name: 'POST /api/projects with an empty body',
    send: (c) =>
      c.post('/api/projects').set('Content-Type', 'application/json'),
  },
  {
    name: 'POST /api/projects with a JSON array',
    send: (c) => c.post('/api/projects').send([1, 2]),
  },
  {
    name: 'POST /api/ai/generate-logo with invalid fields',
    send: (c) =>
      c.post('/api/ai/generate-logo').send({ style: 'loud', colors: [] }),
  },
];

/** A stack frame ("at fn (file:1:2)"), whatever the surrounding text. */
const STACK_FRAME = /\bat\s+\S.*:\d+:\d+/;
const LEAKS = [
  '/work',
  REPO_ROOT,
  'node_modules',
  'dist/src',
  'SELECT',
  'INSERT',
  'UPDATE "',
  'DELETE FROM',
  'QueryFailedError',
];

describe('the built server as a real process', () => {
  let tempDirs: string[] = [];
  let servers: ServerProcess[] = [];
  let testApp: TestApp | undefined;
  let databases: TestDatabase[] = [];

  /** A database of the kind under test (SQLite file or PostgreSQL). */
  const database = async () => {
    const created = await createTestDatabase();
    databases.push(created);
    return created.url;
  };

  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'workspace-process-'));
    tempDirs.push(dir);
    return dir;
  };

  /** A server on a SQLite file of its own, run from its own folder. */
  const start = async (
    env: Record<string, string | undefined>,
    cwd: string,
  ) => {
    const server = await startServer(env, { cwd });
    servers.push(server);
    return server;
  };

  afterEach(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await testApp?.close();
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
    for (const created of databases) await created.drop();
    databases = [];
    servers = [];
    testApp = undefined;
    tempDirs = [];
  }, TEST_TIMEOUT_MS);

  /** A config run: must stop on its own with one line on stderr. */
  function expectStartUpRefused(result: ExitResult, variable: string) {
    expect(result.signal).toBeNull();
    expect(result.code).not.toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(variable);
    expect(result.stdout).not.toContain('Listening');
  }

  it(
    'the built server answers like an app built from AppModule alone',
    async () => {
      const dir = tempDir();
      const server = await start({ DATABASE_URL: await database() }, dir);
      // Unset here what the child does not inherit either.
      testApp = await createTestApp({
        IMAGE_API_KEY: undefined,
        IMAGE_API_URL: undefined,
        IMAGE_MODEL: undefined,
        IMAGE_API_TIMEOUT_MS: undefined,
        BODY_LIMIT: undefined,
        MIGRATIONS_RUN: undefined,
      });
      const processClient = request(server.baseUrl);
      const appClient = request(testApp.server);

      for (const step of PARITY_STEPS) {
        const fromProcess = await step.send(processClient);
        const fromApp = await step.send(appClient);
        const seen = (res: Response) => ({
          step: step.name,
          status: res.status,
          type: res.type,
          body: withoutVolatileFields(res.body),
        });

        expect(seen(fromProcess)).toEqual({
          ...seen(fromProcess),
          status: step.status,
          type: 'application/json',
        });
        step.check?.(fromProcess);
        expect(seen(fromApp)).toEqual(seen(fromProcess));
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'data survives a restart',
    async () => {
      const dir = tempDir();
      const env = { DATABASE_URL: await database() };
      const first = await start(env, dir);
      const created = await request(first.baseUrl)
        .post('/api/projects')
        .send(VALID_PROJECT)
        .expect(201);
      const id: string = created.body.project.id;

      const code = await first.stop();
      // A graceful stop on SIGTERM exits 0 (never the SIGKILL after 5 s).
      expect({ code, signal: first.signal }).toEqual({ code: 0, signal: null });
      expect(first.stderr).toBe('');

      const second = await start(env, dir);
      const fetched = await request(second.baseUrl)
        .get(`/api/projects/${id}`)
        .expect(200);
      expect(fetched.body.project.id).toBe(id);
      expect(fetched.body.project.name).toBe(VALID_PROJECT.name);
      expect(
        fetched.body.project.sections.map((s: { type: string }) => s.type),
      ).toEqual(SECTION_ORDER);
      expect(fetched.body.project.agents).toHaveLength(3);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a fresh file database is created with its folder',
    async () => {
      const dir = tempDir();
      const file = join(dir, 'nested', 'dir', 'workspace.db');
      expect(existsSync(join(dir, 'nested'))).toBe(false);

      const server = await start({ DATABASE_URL: `file:${file}` }, dir);

      expect(existsSync(file)).toBe(true);
      await request(server.baseUrl)
        .post('/api/projects')
        .send(VALID_PROJECT)
        .expect(201);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'an invalid PORT stops start-up with one line naming PORT and a non-zero exit code',
    async () => {
      const dir = tempDir();
      const file = join(dir, 'workspace.db');
      const result = await runToExit(
        { PORT: 'abc', DATABASE_URL: `file:${file}`, LOG_LEVEL: 'info' },
        { cwd: dir },
      );
      expectStartUpRefused(result, 'PORT');
      expect(existsSync(file)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'an unsupported DATABASE_URL stops start-up with one line naming DATABASE_URL',
    async () => {
      const dir = tempDir();
      const result = await runToExit(
        {
          DATABASE_URL: 'mysql://admin:secret@db.internal/x',
          LOG_LEVEL: 'info',
        },
        { cwd: dir },
      );
      expectStartUpRefused(result, 'DATABASE_URL');
      // The URL may carry a password: it is never echoed.
      expect(result.stderr).not.toContain('secret');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'an invalid IMAGE_API_URL stops start-up',
    async () => {
      const dir = tempDir();
      const file = join(dir, 'workspace.db');
      const result = await runToExit(
        {
          IMAGE_API_URL: 'not-a-url',
          DATABASE_URL: `file:${file}`,
          LOG_LEVEL: 'info',
        },
        { cwd: dir },
      );
      expectStartUpRefused(result, 'IMAGE_API_URL');
      expect(existsSync(file)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'responses never show a stack trace, SQL or a file path',
    async () => {
      const dir = tempDir();
      const server = await start({ DATABASE_URL: await database() }, dir);
      const client = request(server.baseUrl);
      const leaks = [...LEAKS, dir];

      for (const input of BAD_INPUTS) {
        const res = await input.send(client);
        const seen = {
          input: input.name,
          type: res.type,
          stackFrame: STACK_FRAME.exec(res.text)?.[0],
          leaks: leaks.filter((leak) => res.text.includes(leak)),
          sqlite: /sqlite/i.test(res.text),
        };
        expect(seen).toEqual({
          input: input.name,
          type: 'application/json',
          stackFrame: undefined,
          leaks: [],
          sqlite: false,
        });
        expect(res.status).toBeGreaterThanOrEqual(400);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
