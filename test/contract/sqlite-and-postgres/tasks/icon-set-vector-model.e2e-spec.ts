import request from 'supertest';
import { DevTextApi } from '../../../../dev-servers/text-api';
import {
  getBytes,
  pathOf,
  type AssetBody,
} from '../../../support/asset-client';
import { DevImageApi } from '../../../support/fake-image-api';
import { createProject } from '../../../support/project-fixtures';
import {
  readProject,
  sectionOf,
  startTask,
  waitForTask,
} from '../../../support/task-client';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * `icon-set` with an image model that draws SVG (Recraft's vector model,
 * the dev image API answering as Recraft does): the names Lucide lacks are
 * drawn by it, not by the code model, and its 1024-unit answer is fitted
 * onto the 24 grid. Runs on SQLite and PostgreSQL.
 */
describe('Icon-set tasks with a vector image model', () => {
  let images: DevImageApi;
  let texts: DevTextApi;
  let t: TestApp;

  beforeAll(async () => {
    images = await DevImageApi.start();
    texts = await DevTextApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-recraft-test-key',
      IMAGE_API_URL: `${images.baseUrl}/recraft/v1/images/generations`,
      IMAGE_PROVIDER: 'recraft',
      IMAGE_MODEL: 'recraftv4_1_vector',
      IMAGE_RESPONSE_FORMAT: 'b64_json',
      TEXT_API_URL: texts.url,
      TEXT_API_KEY: 'sk-text',
    });
  });
  afterAll(async () => {
    await t?.close();
    await images?.close();
    await texts?.close();
  });

  it('draws the name Lucide lacks with the vector model (one image call, no code-model call), fitted to the 24 grid', async () => {
    const project = await createProject(t);
    const task = await startTask(t, project.id, {
      type: 'icon-set',
      input: { names: ['search', 'rocket-cart'] },
    });
    const done = await waitForTask(t, project.id, task.id);
    expect(done).toMatchObject({ status: 'SUCCEEDED', error: null });
    const generations = images.requests.filter((call) =>
      call.path.endsWith('/images/generations'),
    );
    expect(generations).toHaveLength(1);
    expect(generations[0].body).toMatchObject({
      model: 'recraftv4_1_vector',
      prompt: expect.stringContaining('"rocket cart"'),
    });
    expect(texts.requests).toHaveLength(0);

    const state = await readProject(t, project.id);
    const icons = sectionOf(state, 'ICONS');
    const drawn = (state.assets as unknown as AssetBody[]).find(
      (asset) =>
        asset.sectionId === icons.id && asset.fileName === 'rocket-cart.svg',
    )!;
    expect(drawn).toMatchObject({
      kind: 'icon',
      model: 'recraftv4_1_vector',
      width: 24,
      height: 24,
    });
    const served = await getBytes(t, pathOf(drawn.url)).expect(200);
    const svg = (served.body as Buffer).toString('utf8');
    expect(svg).toContain('viewBox="0 0 24 24"');
    expect(svg).toContain('scale(0.023)');
    expect(svg).not.toContain('<text');
    await request(t.server)
      .get(`${pathOf(drawn.url)}?size=48`)
      .expect(200);
  });
});
