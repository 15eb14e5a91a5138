import { DevTextApi } from '../../../../dev-servers/text-api';
import { CrossOriginPage } from '../../../support/cross-origin-page';
import { DevImageApi } from '../../../support/fake-image-api';
import { listen } from '../../../support/pending-request';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * A frontend on another origin, in headless Chromium, fills the design
 * half of a project against the dev APIs with the documented task types:
 * LOGO (logo), ICONS (icon-set, brand-kit), GRAPHICS (graphics), MARKETING
 * (marketing-copy), WIREFRAME (wireframe) and CODE (landing-page). Each
 * section reaches REVIEW with its results, shows them in <img> elements
 * (icons, graphics, the wireframe's preview), and is DONE once one is
 * chosen; TESTING and DEPLOYMENT stay PENDING.
 */

const POLL_MS = 100;
const POLL_LIMIT_MS = 60_000;

interface AssetBody {
  id: string;
  kind: string;
  url: string;
  fileName: string;
  width: number | null;
  height: number | null;
  thumbnailUrl: string | null;
}
interface SectionBody {
  id: string;
  type: string;
  status: string;
  selectedAssetId: string | null;
  assets: AssetBody[];
}
interface ProjectBody {
  id: string;
  sections: SectionBody[];
}
interface TaskBody {
  id: string;
  status: string;
  assetIds: string[];
  error?: { code: string; message: string } | null;
}

describe('the design sections filled by a page on another origin (headless Chromium)', () => {
  let browser: CrossOriginPage;
  let imageApi: DevImageApi;
  let texts: DevTextApi;
  let t: TestApp;
  let api: string;

  beforeAll(async () => {
    browser = await CrossOriginPage.open();
    imageApi = await DevImageApi.start();
    texts = await DevTextApi.start();
    t = await createTestApp({
      CORS_ORIGINS: browser.origin,
      IMAGE_API_KEY: 'sk-design-sections',
      IMAGE_API_URL: imageApi.url,
      TEXT_API_URL: texts.url,
      TEXT_API_KEY: 'sk-text',
    });
    api = await listen(t);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await texts?.close();
    await imageApi?.close();
  });

  const json = { 'Content-Type': 'application/json' };

  async function readProject(projectId: string): Promise<ProjectBody> {
    const read = await browser.fetchJson(`${api}/api/projects/${projectId}`, {
      headers: {},
    });
    expect(read.status).toBe(200);
    return (read.body as { project: ProjectBody }).project;
  }

  function sectionOf(project: ProjectBody, type: string): SectionBody {
    return project.sections.find((section) => section.type === type)!;
  }

  /** Posts a task from the page and polls it, as a frontend does, to its end. */
  async function runTask(
    projectId: string,
    type: string,
    input: Record<string, unknown>,
  ): Promise<TaskBody> {
    const posted = await browser.fetchJson(
      `${api}/api/projects/${projectId}/tasks`,
      { method: 'POST', headers: json, body: JSON.stringify({ type, input }) },
    );
    expect({ type, status: posted.status }).toEqual({ type, status: 202 });
    let task = (posted.body as { task: TaskBody }).task;
    const until = Date.now() + POLL_LIMIT_MS;
    while (['QUEUED', 'RUNNING'].includes(task.status) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const answer = await browser.fetchJson(
        `${api}/api/projects/${projectId}/tasks/${task.id}`,
        { headers: {} },
      );
      expect(answer.status).toBe(200);
      task = (answer.body as { task: TaskBody }).task;
    }
    expect({ type, status: task.status, error: task.error ?? null }).toEqual({
      type,
      status: 'SUCCEEDED',
      error: null,
    });
    return task;
  }

  async function choose(
    projectId: string,
    type: string,
    assetId: string,
  ): Promise<void> {
    const section = sectionOf(await readProject(projectId), type);
    expect(section.status).toBe('REVIEW');
    const selected = await browser.fetchJson(
      `${api}/api/projects/${projectId}/sections/${section.id}/selection`,
      { method: 'PUT', headers: json, body: JSON.stringify({ assetId }) },
    );
    expect(selected.status).toBe(200);
    expect(sectionOf(await readProject(projectId), type)).toMatchObject({
      status: 'DONE',
      selectedAssetId: assetId,
    });
  }

  async function expectShown(
    url: string,
    size: { width: number; height: number },
  ): Promise<void> {
    const shown = await browser.showImage(url);
    expect(shown.failure).toBeNull();
    expect(shown.response?.status()).toBe(200);
    expect(shown).toMatchObject({
      loaded: true,
      naturalWidth: size.width,
      naturalHeight: size.height,
    });
  }

  it('fills LOGO, ICONS, GRAPHICS, MARKETING, WIREFRAME and CODE; each is REVIEW, then DONE by a choice; the page shows icons, graphics and the wireframe preview', async () => {
    const created = await browser.fetchJson(`${api}/api/projects`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        name: 'Harbor Coffee',
        userId: 'dana',
        description: 'Small-batch coffee roasted by the sea, delivered weekly.',
      }),
    });
    expect(created.status).toBe(201);
    const projectId = (created.body as { project: ProjectBody }).project.id;
    const before = await readProject(projectId);
    for (const section of before.sections) {
      expect(section.status).toBe('PENDING');
    }

    const logos = await runTask(projectId, 'logo', {
      companyName: 'Harbor Coffee',
      style: 'modern',
      colors: ['#0F766E', '#F59E0B'],
      count: 2,
    });
    await choose(projectId, 'LOGO', logos.assetIds[0]);

    const copy = await runTask(projectId, 'marketing-copy', {});
    await choose(projectId, 'MARKETING', copy.assetIds[0]);

    // Icons: Lucide's names and one it lacks, drawn by a model.
    const icons = await runTask(projectId, 'icon-set', {
      names: ['cart', 'search', 'coffee', 'harbor-buoy'],
    });
    expect(icons.assetIds).toHaveLength(4);
    const kit = await runTask(projectId, 'brand-kit', {});
    expect(kit.assetIds).toHaveLength(8);
    let project = await readProject(projectId);
    const iconAssets = sectionOf(project, 'ICONS').assets.filter(
      (asset) => asset.kind === 'icon',
    );
    expect(iconAssets.map((asset) => asset.fileName).sort()).toEqual(
      ['cart.svg', 'coffee.svg', 'harbor-buoy.svg', 'search.svg'].sort(),
    );
    expect(
      sectionOf(project, 'ICONS').assets.filter(
        (asset) => asset.kind === 'brand-kit',
      ),
    ).toHaveLength(8);
    for (const icon of iconAssets) {
      await expectShown(icon.url, { width: 24, height: 24 });
      await expectShown(
        `${icon.url}${icon.url.includes('?') ? '&' : '?'}size=48`,
        {
          width: 48,
          height: 48,
        },
      );
    }
    await choose(projectId, 'ICONS', icons.assetIds[0]);

    const graphics = await runTask(projectId, 'graphics', {});
    project = await readProject(projectId);
    const graphicAssets = sectionOf(project, 'GRAPHICS').assets;
    expect(graphicAssets).toHaveLength(5);
    const sizes: Record<string, { width: number; height: number }> = {
      'og.png': { width: 1200, height: 630 },
      'x.png': { width: 1600, height: 900 },
      'linkedin.png': { width: 1200, height: 627 },
      'instagram.png': { width: 1080, height: 1080 },
      'story.png': { width: 1080, height: 1920 },
    };
    for (const graphic of graphicAssets) {
      expect(graphic.kind).toBe('graphic');
      const size = sizes[graphic.fileName];
      expect(size).toBeDefined();
      expect({ width: graphic.width, height: graphic.height }).toEqual(size);
      await expectShown(graphic.url, size);
    }
    await choose(projectId, 'GRAPHICS', graphics.assetIds[0]);

    const wireframe = await runTask(projectId, 'wireframe', {});
    project = await readProject(projectId);
    const [plan] = sectionOf(project, 'WIREFRAME').assets;
    expect(plan).toMatchObject({
      kind: 'wireframe',
      id: wireframe.assetIds[0],
    });
    expect(plan.thumbnailUrl).toEqual(expect.any(String));
    const preview = await browser.showImage(plan.thumbnailUrl!);
    expect(preview.failure).toBeNull();
    expect(preview.loaded).toBe(true);
    expect(preview.naturalWidth).toBeGreaterThan(0);
    await choose(projectId, 'WIREFRAME', plan.id);

    const page = await runTask(projectId, 'landing-page', {});
    await choose(projectId, 'CODE', page.assetIds[0]);

    const after = await readProject(projectId);
    expect(
      Object.fromEntries(
        after.sections.map((section) => [section.type, section.status]),
      ),
    ).toEqual({
      LOGO: 'DONE',
      ICONS: 'DONE',
      GRAPHICS: 'DONE',
      MARKETING: 'DONE',
      WIREFRAME: 'DONE',
      CODE: 'DONE',
      TESTING: 'PENDING',
      DEPLOYMENT: 'PENDING',
    });
    expect(browser.problems).toEqual([]);
  }, 240_000);
});
