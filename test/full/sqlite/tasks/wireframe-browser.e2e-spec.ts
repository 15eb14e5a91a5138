import { DevTextApi } from '../../../../dev-servers/text-api';
import { CrossOriginPage } from '../../../support/cross-origin-page';
import { listen } from '../../../support/pending-request';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * A frontend on another origin runs a wireframe task in headless Chromium
 * and shows the wireframe's preview from its thumbnailUrl in an <img>:
 * the preview is an image a browser loads across origins, 128 pixels a
 * side, with nothing reported in the page's console.
 */

const POLL_MS = 100;
const POLL_LIMIT_MS = 20_000;

interface AssetBody {
  id: string;
  kind: string;
  thumbnailUrl: string | null;
}
interface TaskBody {
  id: string;
  status: string;
  assetIds: string[];
}

describe('a wireframe preview shown by a page on another origin (headless Chromium)', () => {
  let browser: CrossOriginPage;
  let texts: DevTextApi;
  let t: TestApp;
  let api: string;

  beforeAll(async () => {
    browser = await CrossOriginPage.open();
    texts = await DevTextApi.start();
    t = await createTestApp({
      CORS_ORIGINS: browser.origin,
      TEXT_API_URL: texts.url,
      TEXT_API_KEY: 'sk-wireframe-browser',
    });
    api = await listen(t);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await texts?.close();
  });

  it('runs a wireframe task to SUCCEEDED and shows its preview as a 128-pixel image', async () => {
    const json = { 'Content-Type': 'application/json' };
    const created = await browser.fetchJson(`${api}/api/projects`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        name: 'Wireframe from the page',
        userId: 'page-user',
      }),
    });
    expect(created.status).toBe(201);
    const projectId = (created.body as { project: { id: string } }).project.id;
    const posted = await browser.fetchJson(
      `${api}/api/projects/${projectId}/tasks`,
      {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          type: 'wireframe',
          input: { pages: ['home', 'pricing'] },
        }),
      },
    );
    expect(posted.status).toBe(202);
    let task = (posted.body as { task: TaskBody }).task;
    const until = Date.now() + POLL_LIMIT_MS;
    while (['QUEUED', 'RUNNING'].includes(task.status) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const answer = await browser.fetchJson(
        `${api}/api/projects/${projectId}/tasks/${task.id}`,
        {},
      );
      task = (answer.body as { task: TaskBody }).task;
    }
    expect(task.status).toBe('SUCCEEDED');

    const read = await browser.fetchJson(
      `${api}/api/projects/${projectId}`,
      {},
    );
    const asset = (
      read.body as { project: { assets: AssetBody[] } }
    ).project.assets.find((one) => one.id === task.assetIds[0])!;
    expect(asset.kind).toBe('wireframe');
    const shown = await browser.showImage(asset.thumbnailUrl!);
    expect(shown.failure).toBeNull();
    expect(shown.response?.status()).toBe(200);
    expect(shown).toMatchObject({ loaded: true, naturalWidth: 128 });
    expect(browser.problems).toEqual([]);
  }, 60_000);
});
