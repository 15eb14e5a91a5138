import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SVG_POLICY } from '../../../../src/common/http/send-image';
import { SVG_TYPE } from '../../../../src/image-store/image-type';
import { HostedLogos } from '../../../../src/logo/hosted-logos';
import { CrossOriginPage } from '../../../support/cross-origin-page';
import { listen } from '../../../support/pending-request';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * An SVG logo is a document that can hold script. Hosted or kept, it is
 * served so that it cannot run anything with the API's origin: shown in an
 * <img> on another origin it draws; opened as a page of its own (a link, a
 * new tab) its script, event handlers and loads stay dead. A control page
 * serving the same SVG without the policy proves the beacon would hear
 * them.
 */

const SIZE = 64;

interface Beacon {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

/** Records every request; serves `svg` without any policy at /control.svg. */
async function startBeacon(svg: () => string): Promise<Beacon> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    if (req.url === '/control.svg') {
      res.writeHead(200, { 'Content-Type': 'image/svg+xml' });
      res.end(svg());
      return;
    }
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

/** A logo that tries, three ways, to tell the beacon it ran. */
const craftedSvg = (beacon: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}" onload="fetch('${beacon}/onload')">
  <style>rect { fill: #0f766e; }</style>
  <rect width="${SIZE}" height="${SIZE}"/>
  <script>fetch('${beacon}/script');</script>
  <image href="${beacon}/image.png" width="1" height="1"/>
</svg>`;

describe('SVG logos cannot script the API origin (headless Chromium)', () => {
  let browser: CrossOriginPage;
  let beacon: Beacon;
  let t: TestApp;
  let api: string;

  beforeAll(async () => {
    beacon = await startBeacon(() => craftedSvg(beacon.url));
    browser = await CrossOriginPage.open();
    t = await createTestApp({ CORS_ORIGINS: browser.origin });
    api = await listen(t);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await beacon?.close();
  });

  /** Opens `url` as a page of its own and gives its script time to run. */
  const open = async (url: string) => {
    const page = await browser.page.context().browser()!.newPage();
    try {
      const response = await page.goto(url);
      await page.waitForTimeout(500);
      return response;
    } finally {
      await page.close();
    }
  };

  it('the control: the same SVG without the policy runs its script', async () => {
    beacon.hits.length = 0;
    await open(`${beacon.url}/control.svg`);
    expect(beacon.hits).toEqual(
      expect.arrayContaining(['/script', '/onload', '/image.png']),
    );
  });

  it('hosted and kept, it draws in an <img> on another origin and runs nothing when opened', async () => {
    const svg = Buffer.from(craftedSvg(beacon.url));
    const { url: hosted } = await t.app.get(HostedLogos).host(
      {
        bytes: svg,
        type: SVG_TYPE,
        prompt: 'A vector logo for "Acme"',
        model: 'recraftv3',
      },
      api,
    );
    expect(hosted).toMatch(/\/api\/ai\/logos\/[0-9a-f]{32}\.svg$/);

    const json = { 'Content-Type': 'application/json' };
    const created = await browser.fetchJson(`${api}/api/projects`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Vector', userId: 'user-svg' }),
    });
    expect(created.status).toBe(201);
    const projectId = (created.body as { project: { id: string } }).project.id;
    const kept = await browser.fetchJson(
      `${api}/api/projects/${projectId}/logos`,
      {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ logoUrl: hosted }),
      },
    );
    expect(kept.status).toBe(201);
    const asset = (kept.body as { asset: { url: string; contentType: string } })
      .asset;
    expect(asset.contentType).toBe('image/svg+xml');

    for (const url of [hosted, asset.url]) {
      beacon.hits.length = 0;
      const shown = await browser.showImage(url);
      expect(shown).toMatchObject({ loaded: true, naturalWidth: SIZE });
      const response = await open(url);
      expect(response?.status()).toBe(200);
      const headers = response?.headers() ?? {};
      expect(headers['content-type']).toBe('image/svg+xml');
      expect(headers['content-security-policy']).toBe(SVG_POLICY);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(beacon.hits).toEqual([]);
    }
  }, 60_000);
});
