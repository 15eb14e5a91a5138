import sharp from 'sharp';
import request from 'supertest';
import { DevTextApi } from '../../../../dev-servers/text-api';
import {
  getBytes,
  keepLogo,
  pathOf,
  type AssetBody,
} from '../../../support/asset-client';
import {
  ASSET_STORES,
  startAssetStore,
  type AssetStoreUnderTest,
} from '../../../support/asset-stores';
import { DevImageApi } from '../../../support/fake-image-api';
import { createProject } from '../../../support/project-fixtures';
import {
  cancelTask,
  postTask,
  readProject,
  sectionOf,
  startTask,
  waitForTask,
  waitUntilRunning,
} from '../../../support/task-client';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * `icon-set` end to end: Lucide's icons restyled to the chosen logo's
 * colours with no model call, the names Lucide lacks written by the dev
 * text API (the code model), every icon served as rebuilt SVG with the
 * sandbox CSP and as PNG renditions; folding, refusals and cancels as
 * every task type. Runs on SQLite and PostgreSQL, with both asset stores.
 */

const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
/** LOGO_REQUEST's colours: navy and #ffd700; only the hex one is read. */
const BRAND = '#ffd700';
const ACTIVE =
  /<script|onload|javascript:|foreignObject|<image|<a |<iframe|href="http|url\(http|@import/i;

describe.each(ASSET_STORES)('Icon-set tasks (ASSET_STORE=%s)', (kind) => {
  let images: DevImageApi;
  let texts: DevTextApi;
  let store: AssetStoreUnderTest;
  let t: TestApp;

  beforeAll(async () => {
    images = await DevImageApi.start();
    texts = await DevTextApi.start({ beaconUrl: 'http://127.0.0.1:9/beacon' });
    store = await startAssetStore(kind);
    t = await createTestApp({
      ...store.env,
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: images.url,
      TEXT_API_URL: texts.url,
      TEXT_API_KEY: 'sk-text',
      TASK_MAX_ATTEMPTS: '2',
      TASK_RETRY_DELAY_MS: '50',
      TASK_CANCEL_CHECK_MS: '100',
    });
  });
  afterAll(async () => {
    await t?.close();
    await store?.close();
    await images?.close();
    await texts?.close();
  });
  beforeEach(async () => {
    images.reset();
    texts.requests.length = 0;
    await t.reset();
    await store.reset();
  });

  /** A project whose LOGO section has a chosen logo (colours navy, #ffd700). */
  const projectWithBrand = async () => {
    const project = await createProject(t);
    const { asset } = (await keepLogo(t, project.id).expect(201)).body as {
      asset: AssetBody;
    };
    const logo = sectionOf(await readProject(t, project.id), 'LOGO');
    await request(t.server)
      .put(`/api/projects/${project.id}/sections/${logo.id}/selection`)
      .send({ assetId: asset.id })
      .expect(200);
    images.reset();
    return project;
  };

  const iconsOf = async (projectId: string) => {
    const state = await readProject(t, projectId);
    const icons = sectionOf(state, 'ICONS');
    return {
      section: icons,
      assets: state.assets.filter(
        (asset) => asset.sectionId === icons.id,
      ) as unknown as AssetBody[],
    };
  };

  it('a set of 4 keeps Lucide’s 3 restyled in the brand colour without a model call and the 4th written by the code model, each a 24×24 SVG served rebuilt with the sandbox CSP', async () => {
    const project = await projectWithBrand();
    const task = await startTask(t, project.id, {
      type: 'icon-set',
      input: { names: ['search', 'shopping-cart', 'house', 'cart'] },
    });
    expect(task.input).toEqual({
      names: ['search', 'shopping-cart', 'house', 'cart'],
      style: 'outline',
    });
    const done = await waitForTask(t, project.id, task.id);
    expect(done).toMatchObject({ status: 'SUCCEEDED', error: null });
    expect(done.assetIds).toHaveLength(4);
    // Only `cart` is not in Lucide: one code-model call, no image call.
    expect(texts.requests).toHaveLength(1);
    expect(JSON.stringify(texts.requests[0].body.messages)).toContain(
      'Icon: cart',
    );
    expect(images.requests).toHaveLength(0);

    const { section, assets } = await iconsOf(project.id);
    expect(done.sectionId).toBe(section.id);
    expect(section.status).toBe('REVIEW');
    const byName = new Map(assets.map((asset) => [asset.fileName, asset]));
    for (const name of ['search', 'shopping-cart', 'house', 'cart']) {
      const asset = byName.get(`${name}.svg`)!;
      expect(asset).toMatchObject({
        kind: 'icon',
        contentType: 'image/svg+xml',
        width: 24,
        height: 24,
      });
      expect(asset.model).toBe(
        name === 'cart' ? 'gpt-5.4-mini' : 'lucide-static 1.62.0 (ISC)',
      );
      if (name !== 'cart') expect(asset.prompt).toContain('ISC licence');
      const served = await getBytes(t, pathOf(asset.url)).expect(200);
      expect(served.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(served.headers['content-security-policy']).toBe(SVG_POLICY);
      const svg = (served.body as Buffer).toString('utf8');
      expect(svg).toMatch(
        /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="#ffd700" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">/,
      );
      expect(svg).toContain(`stroke="${BRAND}"`);
      expect(svg).not.toMatch(ACTIVE);
      expect(svg).not.toContain('currentColor');
    }

    // Chosen: the section is done.
    await request(t.server)
      .put(`/api/projects/${project.id}/sections/${section.id}/selection`)
      .send({ assetId: done.assetIds[0] })
      .expect(200);
    expect((await iconsOf(project.id)).section.status).toBe('DONE');
  });

  it('an icon’s renditions at 24, 48 and 96 are PNGs of those sizes', async () => {
    const project = await projectWithBrand();
    const task = await startTask(t, project.id, {
      type: 'icon-set',
      input: { names: ['search'], style: 'duotone' },
    });
    await waitForTask(t, project.id, task.id);
    const [icon] = (await iconsOf(project.id)).assets;
    for (const size of [24, 48, 96]) {
      const png = await getBytes(t, `${pathOf(icon.url)}?size=${size}`).expect(
        200,
      );
      expect(png.headers['content-type']).toBe('image/png');
      const meta = await sharp(png.body as Buffer).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([
        'png',
        size,
        size,
      ]);
      // Drawn, not blank: some pixel is opaque.
      const stats = await sharp(png.body as Buffer).stats();
      expect(stats.channels[3].max).toBeGreaterThan(0);
    }
  });

  it('without a chosen logo the set is drawn in the neutral slate; a repeated name is made once; solid fills', async () => {
    const project = await createProject(t);
    const task = await startTask(t, project.id, {
      type: 'icon-set',
      input: { names: ['house', 'house', 'search'], style: 'solid' },
    });
    expect(task.input).toEqual({ names: ['house', 'search'], style: 'solid' });
    const done = await waitForTask(t, project.id, task.id);
    expect(done.assetIds).toHaveLength(2);
    const { assets } = await iconsOf(project.id);
    for (const asset of assets) {
      const svg = (
        (await getBytes(t, pathOf(asset.url)).expect(200)).body as Buffer
      ).toString('utf8');
      expect(svg).toContain('fill="#334155" stroke="#334155"');
    }
  });

  it.each([
    [{}, ['names']],
    [{ names: [] }, ['names']],
    [{ names: ['Cart'] }, ['names']],
    [{ names: ['a--b'] }, ['names']],
    [{ names: ['x'.repeat(41)] }, ['names']],
    [{ names: Array.from({ length: 25 }, (_, i) => `i${i}`) }, ['names']],
    [{ names: ['cart'], style: 'neon' }, ['style']],
  ])('input %j is 400 naming %j', async (input, path) => {
    const project = await createProject(t);
    const response = await postTask(t, project.id, {
      type: 'icon-set',
      input,
    }).expect(400);
    expect(response.body.error).toBe('Invalid input');
    expect(
      (response.body.details as Array<{ path: string[] }>).map((d) => d.path),
    ).toContainEqual(['input', ...path]);
  });

  it('a hostile answer is kept rebuilt (what runs or loads is gone); one with an entity fails invalid_answer, not retried', async () => {
    const project = await projectWithBrand();
    texts.replyNext({ kind: 'hostile-svg', hostile: 'script' });
    const kept = await startTask(t, project.id, {
      type: 'icon-set',
      input: { names: ['cart'] },
    });
    expect(await waitForTask(t, project.id, kept.id)).toMatchObject({
      status: 'SUCCEEDED',
    });
    const [icon] = (await iconsOf(project.id)).assets;
    const svg = (
      (await getBytes(t, pathOf(icon.url)).expect(200)).body as Buffer
    ).toString('utf8');
    expect(svg).toContain('<circle cx="12" cy="12" r="8"/>');
    expect(svg).not.toMatch(ACTIVE);

    texts.requests.length = 0;
    texts.replyNext({ kind: 'hostile-svg', hostile: 'entity' });
    const failed = await startTask(t, project.id, {
      type: 'icon-set',
      input: { names: ['rocket-cart'] },
    });
    expect(await waitForTask(t, project.id, failed.id)).toMatchObject({
      status: 'FAILED',
      error: { code: 'invalid_answer' },
      attempts: 1,
    });
    expect(texts.requests).toHaveLength(1);
  });

  it('the code model’s refusal fails the task as refused after one call; icons kept before it stay', async () => {
    const project = await projectWithBrand();
    texts.replyNext({ kind: 'refusal' });
    const task = await startTask(t, project.id, {
      type: 'icon-set',
      input: { names: ['search', 'cart'] },
    });
    const done = await waitForTask(t, project.id, task.id);
    expect(done).toMatchObject({
      status: 'FAILED',
      error: { code: 'refused' },
      attempts: 1,
    });
    expect(texts.requests).toHaveLength(1);
    expect(done.assetIds).toHaveLength(1);
  });

  it('a cancelled set closes the code model’s call and keeps nothing more', async () => {
    const project = await projectWithBrand();
    texts.replyNext({ kind: 'answer', latencyMs: 20_000 });
    const task = await startTask(t, project.id, {
      type: 'icon-set',
      input: { names: ['cart'] },
    });
    await waitUntilRunning(t, project.id, task.id);
    for (let i = 0; i < 200 && texts.requests.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const cancelled = await cancelTask(t, project.id, task.id).expect(200);
    expect(cancelled.body.task.status).toBe('CANCELLED');
    for (let i = 0; i < 200 && !texts.requests[0].closedEarly; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(texts.requests[0].closedEarly).toBe(true);
    expect((await iconsOf(project.id)).assets).toHaveLength(0);
  });
});
