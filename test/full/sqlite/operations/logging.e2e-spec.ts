import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import {
  startDevImageApiProcess,
  type DevImageApiProcess,
} from '../../../support/dev-image-api-process';
import { startPost } from '../../../support/pending-request';
import { startServer } from '../../../support/server-process';

/**
 * The log of the real server process (`node dist/service/main.js`), through a
 * full logo round trip against the dev image API process with a known key.
 */

const KEY = 'sk-log-test-7f3a9c2e51b84d06';
const LOGO_REQUEST = {
  projectId: 'any',
  companyName: 'Acme',
  style: 'geometric',
  colors: ['navy', 'gold'],
};

interface LogLine {
  level: number;
  time: string;
  msg: string;
  requestId?: string;
  method?: string;
  route?: string | null;
  url?: string;
  status?: number;
  durationMs?: number;
  [key: string]: unknown;
}

/**
 * What an upstream could echo of KEY besides the key itself (URL-encoding
 * leaves this key as it is; key-redaction.spec.ts covers a key it changes).
 */
const KEY_FORMS = [
  `${KEY.slice(0, 3)}...${KEY.slice(-4)}`,
  `${KEY.slice(0, 8)}${'*'.repeat(20)}${KEY.slice(-4)}`,
  Buffer.from(KEY).toString('base64'),
  Buffer.from(KEY).toString('base64url'),
];
const ECHOED_FORMS = `Incorrect API key provided: ${KEY_FORMS.join(' ')}`;

/** Credentials sent in URLs: none may reach the log. */
const URL_SECRETS = {
  ticket: 'tkt-5b1e0c9a7d334f28',
  token: 'tok-8c2f61d0e4a94b77',
  signature: 'sig-3f9a0b7c2e6d4158',
};

const isRequestLine = (line: LogLine) =>
  line.msg === 'request completed' || line.msg === 'request failed';

describe('Request logs of the server process', () => {
  let upstream: DevImageApiProcess;
  let dir: string;
  let stdout = '';
  let stderr = '';
  let exitCode: number | null;
  let lines: LogLine[];
  let formsAnswer = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'logging-'));
    upstream = await startDevImageApiProcess();
    const server = await startServer(
      {
        DATABASE_URL: `file:${join(dir, 'db.sqlite')}`,
        IMAGE_API_KEY: KEY,
        IMAGE_API_URL: upstream.url,
        IMAGE_API_MAX_RETRIES: '0',
        LOG_LEVEL: 'info',
      },
      { cwd: dir },
    );
    try {
      const client = request(server.baseUrl);
      await client
        .post('/api/projects')
        .set('X-Request-Id', 'log-create')
        .send({ name: 'Logged', userId: 'u1' })
        .expect(201);
      // A caller that sends the key itself: it must not be logged either.
      const logo = await client
        .post('/api/ai/generate-logo')
        .set('X-Request-Id', 'log-logo')
        .set('Authorization', `Bearer ${KEY}`)
        .send(LOGO_REQUEST)
        .expect(200);
      expect(logo.body.success).toBe(true);
      // An upstream error that echoes the key in its message.
      await request(new URL(upstream.url).origin)
        .post('/_dev/next')
        .send({
          reply: 'error',
          status: 401,
          message: `Incorrect API key provided: ${KEY}`,
        })
        .expect(200);
      const failed = await client
        .post('/api/ai/generate-logo')
        .set('X-Request-Id', 'log-upstream-error')
        .send(LOGO_REQUEST)
        .expect(500);
      expect(JSON.stringify(failed.body)).not.toContain(KEY);
      // The same key masked and encoded, as upstreams print it.
      await request(new URL(upstream.url).origin)
        .post('/_dev/next')
        .send({ reply: 'error', status: 401, message: ECHOED_FORMS })
        .expect(200);
      const forms = await client
        .post('/api/ai/generate-logo')
        .set('X-Request-Id', 'log-upstream-forms')
        .send(LOGO_REQUEST)
        .expect(500);
      formsAnswer = JSON.stringify(forms.body);
      await client
        .get('/api/projects/no-such-id')
        .set('X-Request-Id', 'log-not-found')
        .expect(404);
      // Credentials in the URL: a stream ticket, an access token, a signed
      // asset URL's signature.
      await client
        .get(
          `/api/projects/no-such-id?ticket=${URL_SECRETS.ticket}&access_token=${URL_SECRETS.token}`,
        )
        .set('X-Request-Id', 'log-url-ticket');
      await client
        .get(
          `/api/projects/no-such-id/assets/no-such-asset/content?expires=4102444800&signature=${URL_SECRETS.signature}`,
        )
        .set('X-Request-Id', 'log-url-signature');
    } finally {
      exitCode = await server.stop();
      stdout = server.stdout;
      stderr = server.stderr;
    }
    lines = stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as LogLine);
  }, 60_000);

  afterAll(async () => {
    await upstream.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 on SIGTERM', () => {
    expect(exitCode).toBe(0);
  });

  it("writes only JSON lines, Nest's own lines included", () => {
    expect(lines.length).toBeGreaterThan(4);
    expect(lines.some((line) => /Listening on/.test(line.msg))).toBe(true);
  });

  it.each([
    ['log-create', 'POST', '/api/projects', 201],
    ['log-logo', 'POST', '/api/ai/generate-logo', 200],
    ['log-upstream-error', 'POST', '/api/ai/generate-logo', 500],
    ['log-not-found', 'GET', '/api/projects/:id', 404],
  ])(
    'logs request %s as exactly one line with method %s, route %s, status %i, duration and its request id',
    (requestId, method, route, status) => {
      const mine = lines.filter(
        (line) => isRequestLine(line) && line.requestId === requestId,
      );
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ requestId, method, route, status });
      expect(mine[0].durationMs).toEqual(expect.any(Number));
      expect(Number.isNaN(Date.parse(mine[0].time))).toBe(false);
    },
  );

  it('logs stream tickets, access tokens and URL signatures as [redacted], never their values', () => {
    const byId = (id: string) =>
      lines.find((line) => isRequestLine(line) && line.requestId === id);
    expect(byId('log-url-ticket')?.url).toBe(
      '/api/projects/no-such-id?ticket=[redacted]&access_token=[redacted]',
    );
    expect(byId('log-url-signature')?.url).toBe(
      '/api/projects/no-such-id/assets/no-such-asset/content?expires=4102444800&signature=[redacted]',
    );
    for (const secret of Object.values(URL_SECRETS)) {
      expect(stdout).not.toContain(secret);
      expect(stderr).not.toContain(secret);
    }
  });

  it('logs no headers and no bodies in request lines', () => {
    for (const line of lines.filter(isRequestLine)) {
      expect(Object.keys(line).sort()).toEqual(
        [
          'durationMs',
          'hostname',
          'level',
          'method',
          'msg',
          'pid',
          'requestId',
          'route',
          'status',
          'time',
          'url',
        ].sort(),
      );
    }
  });

  it('never answers or logs the key masked, base64 or base64url', () => {
    expect(stdout).toContain('log-upstream-forms');
    expect(formsAnswer).toContain('[redacted]');
    for (const form of KEY_FORMS) {
      expect(formsAnswer).not.toContain(form);
      expect(stdout).not.toContain(form);
      expect(stderr).not.toContain(form);
    }
    expect(formsAnswer).not.toContain(KEY.slice(-4));
  });

  it('never writes the image-API key, whoever sent it', () => {
    expect(stdout).toContain('log-upstream-error');
    expect(stdout).not.toContain(KEY);
    expect(stderr).not.toContain(KEY);
  });
});

describe('LOG_FORMAT=pretty', () => {
  it('writes human-readable lines instead of JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logging-pretty-'));
    const server = await startServer(
      {
        DATABASE_URL: `file:${join(dir, 'db.sqlite')}`,
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'pretty',
      },
      { cwd: dir },
    );
    try {
      await request(server.baseUrl)
        .get('/api/projects')
        .set('X-Request-Id', 'pretty-1')
        .expect(200);
    } finally {
      expect(await server.stop()).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
    const line = server.stdout
      .split('\n')
      .find((text) => text.includes('pretty-1'));
    expect(line).toBeDefined();
    expect(line).toContain('request completed');
    expect(() => JSON.parse(line ?? '')).toThrow();
  }, 60_000);
});

describe('Request lines and SIGTERM', () => {
  it('writes the line of every answered request before the process exits, although lines are written asynchronously', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logging-sigterm-'));
    const server = await startServer(
      { DATABASE_URL: `file:${join(dir, 'db.sqlite')}`, LOG_LEVEL: 'info' },
      { cwd: dir },
    );
    const count = 400;
    let exitCode: number | null;
    try {
      const client = request(server.baseUrl);
      await Promise.all(
        Array.from({ length: count }, (_, i) =>
          client
            .get('/api/projects/unknown')
            .set('X-Request-Id', `sigterm-${i}`)
            .expect(404),
        ),
      );
    } finally {
      // At once: the last lines are still queued when the signal comes.
      exitCode = await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(exitCode).toBe(0);
    const ids = new Set(
      server.stdout
        .split('\n')
        .filter((line) => line.includes('"sigterm-'))
        .map((line) => (JSON.parse(line) as LogLine).requestId),
    );
    expect(ids.size).toBe(count);
  }, 60_000);

  it("writes a lone request's line within a second, although lines are written in batches", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logging-lone-'));
    const server = await startServer(
      { DATABASE_URL: `file:${join(dir, 'db.sqlite')}`, LOG_LEVEL: 'info' },
      { cwd: dir },
    );
    try {
      await request(server.baseUrl)
        .get('/api/projects/unknown')
        .set('X-Request-Id', 'lone-request')
        .expect(404);
      const answered = Date.now();
      // One short line is far under the batch size: only the timer writes it.
      while (!server.stdout.includes('"lone-request"')) {
        if (Date.now() - answered > 1_000) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(server.stdout).toContain('"requestId":"lone-request"');
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("adds the upstream's usage tokens to a logo request's line, and warns once at start-up about a retired IMAGE_MODEL", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logging-usage-'));
    const upstream = await startDevImageApiProcess();
    const env = {
      DATABASE_URL: `file:${join(dir, 'db.sqlite')}`,
      IMAGE_API_KEY: KEY,
      IMAGE_API_URL: upstream.url,
      LOG_LEVEL: 'info',
    };
    const gpt = await startServer(
      { ...env, IMAGE_MODEL: 'gpt-image-2.5-sunburst' },
      { cwd: dir },
    );
    const retired = await startServer(
      { ...env, IMAGE_MODEL: 'dall-e-2' },
      { cwd: dir },
    );
    try {
      await request(gpt.baseUrl)
        .post('/api/ai/generate-logo')
        .set('X-Request-Id', 'log-usage')
        .send(LOGO_REQUEST)
        .expect(200);
    } finally {
      await Promise.all([gpt.stop(), retired.stop(), upstream.stop()]);
      rmSync(dir, { recursive: true, force: true });
    }
    const parse = (out: string) =>
      out
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as LogLine & Record<string, unknown>);
    const line = parse(gpt.stdout).find(
      (entry) => entry.requestId === 'log-usage',
    );
    expect(line).toMatchObject({
      imageInputTokens: expect.any(Number),
      imageOutputTokens: 272,
    });
    expect(
      parse(gpt.stdout).filter((entry) => /retired/.test(String(entry.msg))),
    ).toEqual([]);
    const warnings = parse(retired.stdout).filter((entry) =>
      /retired/.test(String(entry.msg)),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toMatch(/^IMAGE_MODEL=dall-e-2 .*Set IMAGE_MODEL=/);
  }, 60_000);
});

describe('A request its client aborts', () => {
  it('is logged as aborted with status 499, not with the 201 it would have answered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logging-aborted-'));
    const upstream = await startDevImageApiProcess({
      IMAGE_DEV_LATENCY_MS: '30000',
    });
    const admin = new URL(upstream.url).origin;
    const server = await startServer(
      {
        DATABASE_URL: `file:${join(dir, 'db.sqlite')}`,
        IMAGE_API_KEY: KEY,
        IMAGE_API_URL: upstream.url,
        IMAGE_API_MAX_RETRIES: '0',
        LOG_LEVEL: 'info',
      },
      { cwd: dir },
    );
    try {
      const project = await request(server.baseUrl)
        .post('/api/projects')
        .send({ name: 'Aborted keep', userId: 'u1' })
        .expect(201);
      const { companyName, style, colors } = LOGO_REQUEST;
      const leaving = startPost(
        server.baseUrl,
        `/api/projects/${project.body.project.id as string}/logos`,
        { companyName, style, colors },
        { 'X-Request-Id': 'log-aborted' },
      );
      // Hang up while the image API is still drawing.
      await waitFor(async () => {
        const state = await request(admin).get('/_dev').expect(200);
        return (state.body as { openCalls: number }).openCalls === 1;
      });
      leaving.abort();
      await waitFor(() =>
        Promise.resolve(server.stdout.includes('"log-aborted"')),
      );
    } finally {
      await server.stop();
      await upstream.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    const line = server.stdout
      .split('\n')
      .filter((text) => text.includes('"log-aborted"'))
      .map((text) => JSON.parse(text) as LogLine)
      .find((parsed) => parsed.requestId === 'log-aborted');
    expect(line).toMatchObject({
      msg: 'request aborted',
      method: 'POST',
      route: '/api/projects/:id/logos',
      status: 499,
    });
  }, 60_000);
});

/** Polls `condition` every 20 ms for up to 20 s. */
async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not met within 20 s');
}
