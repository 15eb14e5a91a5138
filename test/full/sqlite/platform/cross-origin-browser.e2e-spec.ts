import { exportJWK, generateKeyPair } from 'jose';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DevImageApi, Replies } from '../../../../dev-servers/image-api';
import { CHROMIUM_ARGS, findChromium } from '../../../support/chromium';
import { DevAuthProviderProcess } from '../../../support/dev-auth-provider-process';
import { listen } from '../../../support/pending-request';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * A web app on another origin, as a frontend team runs one: a page served
 * from a second port of 127.0.0.1 in headless Chromium, calling the service
 * (AUTH_MODE=oidc, CORS_ORIGINS = the page's origin) with a bearer token it
 * fetched itself from the dev OpenID Provider. The browser enforces CORS:
 * a request header the preflight does not allow makes `fetch` throw, and a
 * response header that is not exposed reads as null.
 */

/** Every request header a documented feature reads. */
const DOCUMENTED_REQUEST_HEADERS: [string, string][] = [
  ['Content-Type', 'application/json'],
  ['Authorization', 'Bearer x'],
  ['X-Request-Id', 'page-1'],
  ['Idempotency-Key', 'k-1'],
  ['If-Match', '"1"'],
  ['If-None-Match', '"1"'],
  ['traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
  ['tracestate', 'vendor=1'],
  ['baggage', 'team=web'],
];

const AUDIENCE = 'workspace-api';

/** The page: an empty document, so every call below is cross-origin. */
async function startPageServer(): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Frontend</title><p>Frontend</p>');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

/** What the page saw of one answer (only what CORS lets a script read). */
interface Seen {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

describe('a page on another origin in headless Chromium (AUTH_MODE=oidc, CORS_ORIGINS)', () => {
  let pageServer: Server;
  let pageOrigin: string;
  let provider: DevAuthProviderProcess;
  let imageApi: DevImageApi;
  let t: TestApp;
  let api: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    const browserChoice = await findChromium();
    pageServer = await startPageServer();
    pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
    const { privateKey } = await generateKeyPair('RS256', {
      extractable: true,
    });
    provider = await DevAuthProviderProcess.start(
      {
        ...(await exportJWK(privateKey)),
        kid: 'cross-origin',
        alg: 'RS256',
        use: 'sig',
      },
      { CORS_ORIGINS: pageOrigin },
    );
    imageApi = await DevImageApi.start({ defaultReply: Replies.success() });
    t = await createTestApp({
      AUTH_MODE: 'oidc',
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
      AUTH_ISSUER: provider.issuer,
      AUTH_AUDIENCE: AUDIENCE,
      CORS_ORIGINS: pageOrigin,
      IMAGE_API_KEY: 'sk-cross-origin',
      IMAGE_API_URL: imageApi.url,
      LOGO_RATE_LIMIT: '1',
    });
    api = await listen(t);
    browser = await chromium.launch({
      executablePath: browserChoice.executablePath,
      args: CHROMIUM_ARGS,
    });
    page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(pageOrigin);
  }, 90_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await t?.close();
    await imageApi?.close();
    await provider?.stop();
    if (pageServer) {
      pageServer.closeAllConnections();
      await new Promise((resolve) => pageServer.close(resolve));
    }
  });

  /** One fetch from the page; a TypeError (CORS refused it) is returned as text. */
  const call = (
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<Seen | string> =>
    page.evaluate(
      async ({ url, init }) => {
        try {
          const response = await fetch(url, init);
          const headers: Record<string, string | null> = {};
          for (const name of [
            'ETag',
            'Location',
            'X-Request-Id',
            'Idempotent-Replayed',
            'Retry-After',
            'WWW-Authenticate',
          ]) {
            headers[name] = response.headers.get(name);
          }
          const text = await response.text();
          return {
            status: response.status,
            headers,
            body: text === '' ? null : (JSON.parse(text) as unknown),
          };
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
      },
      { url: `${api}${path}`, init },
    );

  const seen = async (
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<Seen> => {
    const answer = await call(path, init);
    if (typeof answer === 'string') {
      throw new Error(
        `${init.method ?? 'GET'} ${path} failed in the browser: ${answer}\n${problems.join('\n')}`,
      );
    }
    return answer;
  };

  it.each(DOCUMENTED_REQUEST_HEADERS)(
    'answers a preflight allowing the request header %s',
    async (name) => {
      const response = await fetch(`${api}/api/projects/x`, {
        method: 'OPTIONS',
        headers: {
          Origin: pageOrigin,
          'Access-Control-Request-Method': 'PATCH',
          'Access-Control-Request-Headers': name.toLowerCase(),
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(
        pageOrigin,
      );
      const allowed = (
        response.headers.get('access-control-allow-headers') ?? ''
      )
        .toLowerCase()
        .split(',')
        .map((header) => header.trim());
      expect(allowed).toContain(name.toLowerCase());
    },
  );

  it('sends every documented request header at once from the page (one preflight, no CORS refusal)', async () => {
    const token = await provider.token('carol');
    const headers = Object.fromEntries(DOCUMENTED_REQUEST_HEADERS);
    const answer = await seen('/api/projects/unknown', {
      method: 'PATCH',
      headers: { ...headers, Authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'x' }),
    });
    // With If-Match, an unknown id is 412: the request itself got through.
    expect(answer.status).toBe(412);
    expect(answer.headers['X-Request-Id']).toBe('page-1');
  });

  it('creates, lists, reads with If-None-Match, PATCHes with If-Match, generates a logo and deletes, with a token the page fetched itself', async () => {
    // The dev OpenID Provider answers CORS for the page's origin too.
    const minted = await page.evaluate(async (issuer) => {
      const response = await fetch(`${issuer}/_dev/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ user: 'alice' }),
      });
      return ((await response.json()) as { access_token: string }).access_token;
    }, provider.issuer);
    const auth = {
      Authorization: `Bearer ${minted}`,
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    };
    const json = { ...auth, 'Content-Type': 'application/json' };

    const created = await seen('/api/projects', {
      method: 'POST',
      headers: { ...json, 'Idempotency-Key': 'page-create-1' },
      body: JSON.stringify({ name: 'From the page' }),
    });
    expect(created.status).toBe(201);
    const project = (
      created.body as { project: { id: string; userId: string } }
    ).project;
    expect(project.userId).toBe('alice');
    // Absolute: a page resolves a relative one against its own origin.
    expect(created.headers.Location).toBe(`${api}/api/projects/${project.id}`);
    expect(created.headers.ETag).toBe('"1"');
    expect(created.headers['X-Request-Id']).toEqual(expect.any(String));

    const replayed = await seen('/api/projects', {
      method: 'POST',
      headers: { ...json, 'Idempotency-Key': 'page-create-1' },
      body: JSON.stringify({ name: 'From the page' }),
    });
    expect(replayed.status).toBe(201);
    expect(replayed.headers['Idempotent-Replayed']).toBe('true');

    const list = await seen('/api/projects', { headers: auth });
    expect(list.status).toBe(200);
    expect(
      (list.body as { projects: { id: string }[] }).projects.map((p) => p.id),
    ).toEqual([project.id]);

    const unchanged = await seen(`/api/projects/${project.id}`, {
      headers: { ...auth, 'If-None-Match': '"1"' },
    });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body).toBeNull();
    expect(unchanged.headers.ETag).toBe('"1"');

    const patched = await seen(`/api/projects/${project.id}`, {
      method: 'PATCH',
      headers: { ...json, 'If-Match': '"1"' },
      body: JSON.stringify({ name: 'Renamed from the page' }),
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.ETag).toBe('"2"');
    const stale = await seen(`/api/projects/${project.id}`, {
      method: 'PATCH',
      headers: { ...json, 'If-Match': '"1"' },
      body: JSON.stringify({ name: 'Lost update' }),
    });
    expect(stale.status).toBe(412);

    const logo = {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        projectId: project.id,
        companyName: 'Acme',
        style: 'modern',
        colors: ['navy'],
      }),
    };
    const generated = await seen('/api/ai/generate-logo', logo);
    expect(generated.status).toBe(200);
    expect(generated.body).toMatchObject({ success: true });
    const limited = await seen('/api/ai/generate-logo', logo);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['Retry-After'])).toBeGreaterThan(0);

    const deleted = await seen(`/api/projects/${project.id}`, {
      method: 'DELETE',
      headers: { ...auth, 'If-Match': '"2"' },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
  }, 60_000);

  it("lets the page read a 401's WWW-Authenticate: no token, and an invalid one", async () => {
    const missing = await seen('/api/projects', {});
    expect(missing.status).toBe(401);
    expect(missing.headers['WWW-Authenticate']).toBe(
      'Bearer realm="workspace-api"',
    );
    const invalid = await seen('/api/projects', {
      headers: { Authorization: 'Bearer not-a-token' },
    });
    expect(invalid.status).toBe(401);
    expect(invalid.headers['WWW-Authenticate']).toMatch(
      /^Bearer realm="workspace-api", error="invalid_token"/,
    );
  });
});
