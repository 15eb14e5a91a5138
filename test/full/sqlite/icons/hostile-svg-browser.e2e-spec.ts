import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import {
  DevTextApi,
  HOSTILE_SVG_NAMES,
  HOSTILE_SVGS,
} from '../../../../dev-servers/text-api';
import { SVG_POLICY } from '../../../../src/common/http/send-image';
import { CrossOriginPage } from '../../../support/cross-origin-page';
import { listen } from '../../../support/pending-request';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * A model that answers hostile SVG (script, onload, external <image>,
 * foreignObject, <use> of another document, CSS url() and @import,
 * namespace and entity tricks) and a team that uploads one: whatever is
 * kept is served so that nothing in it runs or fetches. Each kept SVG is
 * opened in headless Chromium on another origin directly, as an <img> and
 * as an <object>, while a beacon server listens for any request; a control
 * page serving the raw SVGs without the policy proves the beacon hears
 * what they try.
 */

interface Beacon {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

/** Records every request; serves the raw hostile SVGs at /control/<name>.svg. */
async function startBeacon(): Promise<Beacon> {
  const hits: string[] = [];
  const beacon: Beacon = { url: '', hits, close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    const control = /^\/control\/([a-z-]+)\.svg$/.exec(req.url ?? '');
    if (control && control[1] in HOSTILE_SVGS) {
      res.writeHead(200, { 'Content-Type': 'image/svg+xml' });
      res.end(
        HOSTILE_SVGS[control[1] as keyof typeof HOSTILE_SVGS](beacon.url),
      );
      return;
    }
    hits.push(req.url ?? '');
    res.writeHead(204, { 'Access-Control-Allow-Origin': '*' });
    res.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  beacon.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  beacon.close = async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  };
  return beacon;
}

/** Which hostile answers leave nothing keepable: the task fails. */
const REFUSED = new Set(['entity', 'script-only']);

describe('Hostile SVG is never served runnable (headless Chromium)', () => {
  let browser: CrossOriginPage;
  let beacon: Beacon;
  let texts: DevTextApi;
  let t: TestApp;
  let api: string;

  beforeAll(async () => {
    beacon = await startBeacon();
    texts = await DevTextApi.start({ beaconUrl: beacon.url });
    browser = await CrossOriginPage.open();
    t = await createTestApp({
      CORS_ORIGINS: browser.origin,
      TEXT_API_URL: texts.url,
      TEXT_API_KEY: 'sk-text',
      TASK_MAX_ATTEMPTS: '1',
    });
    api = await listen(t);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await texts?.close();
    await beacon?.close();
  });

  /** Opens `url` as a page of its own and gives its script time to run. */
  const openDirectly = async (url: string) => {
    const page = await browser.page.context().browser()!.newPage();
    try {
      const response = await page.goto(url);
      await page.waitForTimeout(300);
      return response;
    } finally {
      await page.close();
    }
  };

  /** Embeds `url` as an <object> in a page of the frontend's origin. */
  const openAsObject = async (url: string) => {
    const page = await browser.page.context().browser()!.newPage();
    try {
      await page.goto(browser.origin);
      await page.evaluate((data) => {
        const { document } = globalThis as unknown as {
          document: {
            createElement(tag: 'object'): Record<string, unknown>;
            body: { append(node: unknown): void };
          };
        };
        const object = document.createElement('object');
        object.type = 'image/svg+xml';
        object.data = data;
        object.width = '96';
        object.height = '96';
        document.body.append(object);
      }, url);
      await page.waitForTimeout(300);
    } finally {
      await page.close();
    }
  };

  /** Every way a browser meets the SVG; the beacon must hear nothing. */
  const expectInert = async (url: string) => {
    beacon.hits.length = 0;
    const response = await openDirectly(url);
    expect(response?.status()).toBe(200);
    const headers = response?.headers() ?? {};
    expect(headers['content-type']).toBe('image/svg+xml');
    expect(headers['content-security-policy']).toBe(SVG_POLICY);
    const shown = await browser.showImage(url);
    expect(shown.loaded).toBe(true);
    await openAsObject(url);
    expect(beacon.hits).toEqual([]);
  };

  const newProject = async () => {
    const created = await request(t.server)
      .post('/api/projects')
      .send({ name: 'Hostile', userId: 'user-hostile' })
      .expect(201);
    return (created.body as { project: { id: string } }).project.id;
  };

  it('the control: served raw, without the policy, the hostile SVGs reach the beacon', async () => {
    beacon.hits.length = 0;
    for (const name of ['script', 'onload', 'external-image', 'css-url']) {
      await openDirectly(`${beacon.url}/control/${name}.svg`);
    }
    expect(beacon.hits).toEqual(
      expect.arrayContaining(['/script', '/onload', '/image.png']),
    );
  }, 60_000);

  it.each(HOSTILE_SVG_NAMES)(
    'a model answering the %s SVG: the icon kept (or the task failed invalid_answer) never runs or fetches anything',
    async (name) => {
      const projectId = await newProject();
      texts.replyNext({ kind: 'hostile-svg', hostile: name });
      const started = await request(t.server)
        .post(`/api/projects/${projectId}/tasks`)
        .send({ type: 'icon-set', input: { names: [`zz-${name}`] } })
        .expect(202);
      const taskId = (started.body as { task: { id: string } }).task.id;
      let task: { status: string; error: { code: string } | null } = {
        status: 'QUEUED',
        error: null,
      };
      for (let i = 0; i < 400; i++) {
        task = (
          await request(t.server)
            .get(`/api/projects/${projectId}/tasks/${taskId}`)
            .expect(200)
        ).body.task;
        if (['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(task.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (REFUSED.has(name)) {
        expect(task).toMatchObject({
          status: 'FAILED',
          error: { code: 'invalid_answer' },
        });
        return;
      }
      expect(task.status).toBe('SUCCEEDED');
      const project = (
        await request(t.server).get(`/api/projects/${projectId}`).expect(200)
      ).body.project as { assets: Array<{ url: string; kind: string }> };
      const icon = project.assets.find((asset) => asset.kind === 'icon')!;
      await expectInert(icon.url.replace(/^https?:\/\/[^/]+/, api));
    },
    60_000,
  );

  it('an uploaded hostile SVG logo is kept rebuilt and never runs or fetches anything', async () => {
    const projectId = await newProject();
    for (const name of HOSTILE_SVG_NAMES.filter((n) => !REFUSED.has(n))) {
      const kept = await request(t.server)
        .post(`/api/projects/${projectId}/logos`)
        // With CORS_ORIGINS set an upload carries a header only a
        // preflight lets a page send.
        .set('Idempotency-Key', randomUUID())
        .attach('file', Buffer.from(HOSTILE_SVGS[name](beacon.url)), {
          filename: `${name}.svg`,
          contentType: 'image/svg+xml',
        })
        .expect(201);
      const asset = (
        kept.body as { asset: { url: string; contentType: string } }
      ).asset;
      expect(asset.contentType).toBe('image/svg+xml');
      await expectInert(asset.url.replace(/^https?:\/\/[^/]+/, api));
    }
    // The entity trick is refused whole.
    const refused = await request(t.server)
      .post(`/api/projects/${projectId}/logos`)
      .set('Idempotency-Key', randomUUID())
      .attach('file', Buffer.from(HOSTILE_SVGS.entity(beacon.url)), {
        filename: 'x.svg',
        contentType: 'image/svg+xml',
      })
      .expect(400);
    expect(refused.body.code).toBe('svg_unsafe');
    expect(beacon.hits).toEqual([]);
  }, 120_000);
});
