import { PNG_SIZE } from '../../../../dev-servers/image-api/logo-png';
import { CrossOriginPage } from '../../../support/cross-origin-page';
import { DevImageApi } from '../../../support/fake-image-api';
import { listen } from '../../../support/pending-request';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * The logo studio as a frontend on another origin uses it, in headless
 * Chromium: it previews a logo, keeps exactly that one (no second call to
 * the image model), varies it with a logo-edit task, chooses it, makes a
 * brand kit and downloads its zip — every step a fetch of the page's own,
 * every image an <img> of the page's.
 */

const POLL_MS = 100;
const POLL_LIMIT_MS = 30_000;

interface AssetBody {
  id: string;
  url: string;
  contentType: string;
}
interface TaskBody {
  id: string;
  status: string;
  assetIds: string[];
  error: unknown;
}

describe('the logo studio from a page on another origin (headless Chromium)', () => {
  let browser: CrossOriginPage;
  let imageApi: DevImageApi;
  let t: TestApp;
  let api: string;

  beforeAll(async () => {
    browser = await CrossOriginPage.open();
    imageApi = await DevImageApi.start();
    t = await createTestApp({
      CORS_ORIGINS: browser.origin,
      IMAGE_API_KEY: 'sk-logo-studio-browser',
      IMAGE_API_URL: imageApi.url,
      // Answers the image itself: the preview is hosted here.
      IMAGE_MODEL: 'gpt-image-2.5-sunburst',
    });
    api = await listen(t);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await imageApi?.close();
  });

  const json = { 'Content-Type': 'application/json' };
  const post = (path: string, body: unknown) =>
    browser.fetchJson(`${api}${path}`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(body),
    });

  /** Posts a task and polls it, as a page does, until it is finished. */
  const runTask = async (projectId: string, body: unknown) => {
    const posted = await post(`/api/projects/${projectId}/tasks`, body);
    expect(posted.status).toBe(202);
    let task = (posted.body as { task: TaskBody }).task;
    const until = Date.now() + POLL_LIMIT_MS;
    while (['QUEUED', 'RUNNING'].includes(task.status) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const read = await browser.fetchJson(
        `${api}/api/projects/${projectId}/tasks/${task.id}`,
        {},
      );
      task = (read.body as { task: TaskBody }).task;
    }
    return task;
  };

  it('previews, keeps the preview unpaid, varies it, chooses it and downloads its brand kit', async () => {
    const created = await post('/api/projects', {
      name: 'Studio',
      userId: 'user-studio',
    });
    expect(created.status).toBe(201);
    const project = (
      created.body as {
        project: { id: string; sections: Array<{ id: string; type: string }> };
      }
    ).project;
    const logoSection = project.sections.find((s) => s.type === 'LOGO')!;

    const previewed = await post('/api/ai/generate-logo', {
      projectId: project.id,
      companyName: 'Studio Co',
      style: 'geometric',
      colors: ['#0F766E', '#F59E0B'],
    });
    expect(previewed.status).toBe(200);
    const { logoUrl } = previewed.body as { logoUrl: string };
    expect((await browser.showImage(logoUrl)).loaded).toBe(true);
    expect(imageApi.requests).toHaveLength(1);

    const kept = await post(`/api/projects/${project.id}/logos`, { logoUrl });
    expect(kept.status).toBe(201);
    const asset = (kept.body as { asset: AssetBody }).asset;
    expect(imageApi.requests).toHaveLength(1);
    const shown = await browser.showImage(asset.url);
    expect(shown).toMatchObject({ loaded: true, naturalWidth: PNG_SIZE });

    const edit = await runTask(project.id, {
      type: 'logo-edit',
      input: { assetId: asset.id, instructions: 'Make it bolder', count: 1 },
    });
    expect(edit).toMatchObject({ status: 'SUCCEEDED', error: null });
    expect(edit.assetIds).toHaveLength(1);
    expect(imageApi.requests.map((call) => call.path)).toEqual([
      '/v1/images/generations',
      '/v1/images/edits',
    ]);
    const detail = await browser.fetchJson(
      `${api}/api/projects/${project.id}`,
      {},
    );
    const variation = (
      detail.body as { project: { assets: AssetBody[] } }
    ).project.assets.find((a) => a.id === edit.assetIds[0])!;
    expect((await browser.showImage(variation.url)).loaded).toBe(true);

    const chosen = await browser.fetchJson(
      `${api}/api/projects/${project.id}/sections/${logoSection.id}/selection`,
      {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ assetId: asset.id }),
      },
    );
    expect(chosen.status).toBe(200);
    const kit = await runTask(project.id, { type: 'brand-kit', input: {} });
    expect(kit).toMatchObject({ status: 'SUCCEEDED', error: null });
    // The kit is made here: the image model was not called again.
    expect(imageApi.requests).toHaveLength(2);

    // As a page downloads it: fetch, then a blob.
    const zip = await browser.page.evaluate(async (url) => {
      const response = await fetch(url);
      const bytes = new Uint8Array(await (await response.blob()).arrayBuffer());
      return {
        status: response.status,
        type: response.headers.get('Content-Type'),
        size: bytes.length,
        magic: String.fromCharCode(bytes[0], bytes[1]),
      };
    }, `${api}/api/projects/${project.id}/brand-kit.zip`);
    expect(zip).toMatchObject({
      status: 200,
      type: 'application/zip',
      magic: 'PK',
    });
    expect(zip.size).toBeGreaterThan(1000);
    expect(browser.problems).toEqual([]);
  }, 90_000);
});
