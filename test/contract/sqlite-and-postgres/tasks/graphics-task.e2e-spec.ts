import sharp from 'sharp';
import request from 'supertest';
import { DevTextApi } from '../../../../dev-servers/text-api';
import {
  getBytes,
  keepLogo,
  pathOf,
  type AssetBody,
} from '../../../support/asset-client';
import { DevImageApi, Replies } from '../../../support/fake-image-api';
import { createProject } from '../../../support/project-fixtures';
import {
  cancelTask,
  postTask,
  readProject,
  rowsOf,
  sectionOf,
  startTask,
  waitForTask,
  waitUntilRunning,
  type TaskBody,
} from '../../../support/task-client';
import {
  ASSET_STORES,
  startAssetStore,
  type AssetStoreUnderTest,
} from '../../../support/asset-stores';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * The graphics task end to end: the social set composed at its exact sizes
 * from the chosen logo, its colours and the latest copy's tagline without
 * any image-model call; the hero drawn by one call to the edit endpoint at
 * a size the model takes and cropped; long, foreign and XML-special
 * headlines; refusals, a cancel and bad input. Runs on SQLite and
 * PostgreSQL, with both asset stores.
 */

const MODEL = 'gpt-image-2';
const EDITS_PATH = '/v1/images/edits';
const SIZES: Record<string, [number, number]> = {
  og: [1200, 630],
  x: [1600, 900],
  linkedin: [1200, 627],
  instagram: [1080, 1080],
  story: [1080, 1920],
  hero: [1920, 1080],
};

describe.each(ASSET_STORES)('Graphics tasks (ASSET_STORE=%s)', (kind) => {
  let images: DevImageApi;
  let texts: DevTextApi;
  let store: AssetStoreUnderTest;
  let t: TestApp;

  beforeAll(async () => {
    images = await DevImageApi.start();
    texts = await DevTextApi.start();
    store = await startAssetStore(kind);
    t = await createTestApp({
      ...store.env,
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: images.url,
      IMAGE_MODEL: MODEL,
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
    await t.reset();
    await store.reset();
  });

  /** A project whose LOGO section has a chosen logo; the dev API's record emptied. */
  const projectWithChosenLogo = async (name = 'Acme Rockets') => {
    const project = await createProject(t, { name });
    const { asset } = (await keepLogo(t, project.id).expect(201)).body as {
      asset: AssetBody;
    };
    const state = await readProject(t, project.id);
    await request(t.server)
      .put(
        `/api/projects/${project.id}/sections/${sectionOf(state, 'LOGO').id}/selection`,
      )
      .send({ assetId: asset.id })
      .expect(200);
    images.reset();
    return { project, logo: asset };
  };

  const graphicsOf = async (projectId: string, task: TaskBody) =>
    Promise.all(
      task.assetIds.map(async (assetId) => {
        const res = await request(t.server)
          .get(`/api/projects/${projectId}/assets/${assetId}`)
          .expect(200);
        const asset = res.body.asset as AssetBody & { fileName: string };
        const bytes = (await getBytes(t, pathOf(asset.url)).expect(200))
          .body as Buffer;
        return { asset, bytes, meta: await sharp(bytes).metadata() };
      }),
    );

  const edits = () => images.requests.filter((r) => r.path === EDITS_PATH);

  it('makes the five social graphics at their exact sizes from the chosen logo and the tagline, with no image-model call, into GRAPHICS', async () => {
    const { project, logo } = await projectWithChosenLogo();
    const copy = await startTask(t, project.id, {
      type: 'marketing-copy',
      input: {},
    });
    expect((await waitForTask(t, project.id, copy.id)).status).toBe(
      'SUCCEEDED',
    );
    const copyAsset = (await readProject(t, project.id)).assets.find(
      (asset) =>
        asset.id === copy.assetIds[0] || asset.kind === 'marketing-copy',
    )!;
    const tagline = (
      JSON.parse(
        (
          (await getBytes(t, pathOf(copyAsset.url)).expect(200)).body as Buffer
        ).toString('utf8'),
      ) as { tagline: string }
    ).tagline;

    const queued = await startTask(t, project.id, { type: 'graphics' });
    expect(queued.input).toEqual({
      formats: ['og', 'x', 'linkedin', 'instagram', 'story'],
    });
    const done = await waitForTask(t, project.id, queued.id);
    expect(done).toMatchObject({ status: 'SUCCEEDED', error: null });
    expect(done.progress).toEqual({ done: 5, total: 5 });
    expect(images.requests).toHaveLength(0);

    const graphics = await graphicsOf(project.id, done);
    expect(graphics.map(({ asset }) => asset.fileName)).toEqual([
      'og.png',
      'x.png',
      'linkedin.png',
      'instagram.png',
      'story.png',
    ]);
    for (const { asset, bytes, meta } of graphics) {
      const [width, height] = SIZES[asset.fileName.replace('.png', '')];
      expect(asset).toMatchObject({
        kind: 'graphic',
        contentType: 'image/png',
        width,
        height,
      });
      expect([meta.format, meta.width, meta.height]).toEqual([
        'png',
        width,
        height,
      ]);
      // The PNG header says so too.
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([
        width,
        height,
      ]);
      expect(asset.prompt).toContain(`headline: ${JSON.stringify(tagline)}`);
      expect(asset.prompt).toContain(`logo: ${logo.id}`);
      // The logo's prompt colours: navy, #ffd700.
      expect(asset.prompt).toContain('colors: #ffd700');
      expect(asset.model).toMatch(/^resvg /);
    }

    const state = await readProject(t, project.id);
    const section = sectionOf(state, 'GRAPHICS');
    expect(done.sectionId).toBe(section.id);
    expect(section.status).toBe('REVIEW');
    await request(t.server)
      .put(`/api/projects/${project.id}/sections/${section.id}/selection`)
      .send({ assetId: done.assetIds[0] })
      .expect(200);
    expect(
      sectionOf(await readProject(t, project.id), 'GRAPHICS'),
    ).toMatchObject({ status: 'DONE', selectedAssetId: done.assetIds[0] });
  });

  it('draws the hero with exactly one call, to the edit endpoint, from the chosen logo at a size the model takes, cropped to 1920×1080', async () => {
    const { project, logo } = await projectWithChosenLogo();
    const task = await startTask(t, project.id, {
      type: 'graphics',
      input: { formats: ['hero', 'og'], headline: 'Parcels in an hour' },
    });
    const done = await waitForTask(t, project.id, task.id);
    expect(done).toMatchObject({ status: 'SUCCEEDED', error: null });
    expect(images.requests).toHaveLength(1);
    expect(edits()).toHaveLength(1);
    expect(edits()[0].body).toMatchObject({
      model: MODEL,
      n: '1',
      size: '1920x1088',
      image: { type: 'image/png', size: logo.byteSize },
      prompt: expect.stringContaining('Do not include any text'),
    });
    const [hero, og] = await graphicsOf(project.id, done);
    expect(hero.asset).toMatchObject({
      kind: 'graphic',
      fileName: 'hero.png',
      width: 1920,
      height: 1080,
    });
    expect([hero.meta.width, hero.meta.height]).toEqual([1920, 1080]);
    expect(hero.asset.model).toMatch(new RegExp(`^${MODEL} \\+ resvg `));
    expect(og.asset).toMatchObject({ fileName: 'og.png', width: 1200 });
  });

  it('without a chosen logo or copy: a wordmark and the project’s name, and a long, foreign, XML-special headline drawn inside the frame', async () => {
    const project = await createProject(t, { name: 'Rocket & <Mail>' });
    const plain = await startTask(t, project.id, {
      type: 'graphics',
      input: { formats: ['instagram'] },
    });
    const named = await waitForTask(t, project.id, plain.id);
    expect(named.status).toBe('SUCCEEDED');
    const [byName] = await graphicsOf(project.id, named);
    expect(byName.asset.prompt).toContain('headline: "Rocket & <Mail>"');
    expect(byName.asset.prompt).toContain('wordmark: "Rocket & <Mail>"');

    const headline =
      `</text><script>x</script> 東京 🚀 “quotes” & ${'W'.repeat(60)}`.slice(
        0,
        120,
      );
    const task = await startTask(t, project.id, {
      type: 'graphics',
      input: { headline },
    });
    const done = await waitForTask(t, project.id, task.id);
    expect(done.status).toBe('SUCCEEDED');
    expect(images.requests).toHaveLength(0);
    for (const { asset, meta } of await graphicsOf(project.id, done)) {
      const [width, height] = SIZES[asset.fileName.replace('.png', '')];
      expect([meta.width, meta.height]).toEqual([width, height]);
      expect(asset.prompt).toContain(`headline: ${JSON.stringify(headline)}`);
    }
  });

  it('the provider’s moderation refusal of the hero fails the task as moderation_blocked after one call', async () => {
    const { project } = await projectWithChosenLogo();
    images.respondWith(Replies.moderationBlocked());
    const task = await startTask(t, project.id, {
      type: 'graphics',
      input: { formats: ['hero'] },
    });
    const done = await waitForTask(t, project.id, task.id);
    expect(done).toMatchObject({
      status: 'FAILED',
      assetIds: [],
      error: { code: 'moderation_blocked' },
    });
    expect(edits()).toHaveLength(1);
  });

  it('a cancel while the hero is drawn closes the call and keeps the graphics made before it only', async () => {
    const { project } = await projectWithChosenLogo();
    images.respondWith(Replies.noAnswer());
    const task = await startTask(t, project.id, {
      type: 'graphics',
      input: { formats: ['og', 'hero'] },
    });
    await images.waitUntil(() => images.openCalls === 1, 30_000);
    expect((await waitUntilRunning(t, project.id, task.id)).status).toBe(
      'RUNNING',
    );
    const cancelled = await cancelTask(t, project.id, task.id).expect(200);
    expect((cancelled.body as { task: TaskBody }).task.status).toBe(
      'CANCELLED',
    );
    await images.waitUntil(() => edits()[0]?.closedEarly === true);
    // The kept logo and og.png.
    expect(await rowsOf(t, 'assets', project.id)).toBe(2);
  });

  it('bad input is refused with 400 under input: an unknown or repeated format, none, a headline over 120 characters', async () => {
    const project = await createProject(t);
    for (const input of [
      { formats: ['banner'] },
      { formats: ['og', 'og'] },
      { formats: [] },
      { formats: 'og' },
      { headline: 'x'.repeat(121) },
      { headline: 42 },
    ]) {
      const res = await postTask(t, project.id, {
        type: 'graphics',
        input,
      }).expect(400);
      expect(res.body).toMatchObject({ error: 'Invalid input' });
      expect(
        (res.body as { details: { path: unknown[] }[] }).details[0].path[0],
      ).toBe('input');
    }
    expect(await rowsOf(t, 'tasks', project.id)).toBe(0);
  });
});
