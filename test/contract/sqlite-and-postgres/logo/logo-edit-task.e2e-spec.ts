import { DevTextApi } from '../../../../dev-servers/text-api';
import {
  getBytes,
  keepLogo,
  pathOf,
  sha256,
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
 * The logo-edit task end to end: a kept logo sent to the dev image API's
 * edit endpoint as a multipart form, its variations kept as new logos,
 * and the refusals (another project's asset, an asset that is not a logo,
 * the provider's 400) and a cancel. Runs on SQLite and PostgreSQL.
 */

const MODEL = 'gpt-image-1.5';
const REFUSAL = 'Your request was rejected as a result of our safety system.';
const EDITS_PATH = '/v1/images/edits';

describe.each(ASSET_STORES)('Logo edit tasks (ASSET_STORE=%s)', (kind) => {
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

  /** A project with one kept logo, the dev API's record emptied. */
  const projectWithLogo = async () => {
    const project = await createProject(t);
    const { asset } = (await keepLogo(t, project.id).expect(201)).body as {
      asset: AssetBody;
    };
    images.reset();
    return { project, logo: asset };
  };

  const editTask = (assetId: string, count?: number) => ({
    type: 'logo-edit',
    input: {
      assetId,
      instructions: 'Make the mark rounder and the blue darker',
      ...(count === undefined ? {} : { count }),
    },
  });

  const edits = () => images.requests.filter((r) => r.path === EDITS_PATH);

  it('a logo-edit task of count 2 sends the kept logo to the edit endpoint and keeps 2 new logos unlike it', async () => {
    const { project, logo } = await projectWithLogo();
    const source = (await getBytes(t, pathOf(logo.url)).expect(200))
      .body as Buffer;

    const task = await startTask(t, project.id, editTask(logo.id, 2));
    const done = await waitForTask(t, project.id, task.id);
    expect(done).toMatchObject({ status: 'SUCCEEDED', error: null });
    expect(done.assetIds).toHaveLength(2);

    // One call a variation, each a multipart form with the logo as `image`.
    expect(images.requests).toHaveLength(2);
    for (const call of edits()) {
      expect(call.method).toBe('POST');
      expect(call.headers['content-type']).toMatch(
        /^multipart\/form-data; boundary=/,
      );
      expect(call.body).toMatchObject({
        model: MODEL,
        n: '1',
        size: '1024x1024',
        input_fidelity: 'high',
        prompt: expect.stringContaining(
          'Make the mark rounder and the blue darker',
        ),
        image: { filename: 'logo.png', type: 'image/png', size: logo.byteSize },
      });
      expect(call.body).not.toHaveProperty('response_format');
    }
    expect(edits()).toHaveLength(2);

    const state = await readProject(t, project.id);
    const kept = state.assets.filter((asset) =>
      done.assetIds.includes(asset.id),
    );
    expect(kept).toHaveLength(2);
    for (const asset of kept as unknown as AssetBody[]) {
      expect(asset).toMatchObject({
        kind: 'logo',
        contentType: 'image/png',
        sectionId: sectionOf(state, 'LOGO').id,
        model: MODEL,
      });
      expect(asset.prompt).toContain('Keep the logo');
      expect(asset.sha256).not.toBe(sha256(source));
      const bytes = (await getBytes(t, pathOf(asset.url)).expect(200))
        .body as Buffer;
      expect(bytes.equals(source)).toBe(false);
    }
  });

  it('an asset of another project is refused at creation with 400 under input.assetId, and nothing is queued', async () => {
    const { logo } = await projectWithLogo();
    const project = await createProject(t);
    const refused = await postTask(t, project.id, editTask(logo.id)).expect(
      400,
    );
    expect(refused.body).toEqual({
      error: 'Invalid input',
      code: 'invalid_input',
      details: [expect.objectContaining({ path: ['input', 'assetId'] })],
    });
    expect(await rowsOf(t, 'tasks', project.id)).toBe(0);
    expect(images.requests).toHaveLength(0);
  });

  it('an asset that is not a logo (marketing copy) is refused at creation with 400', async () => {
    const project = await createProject(t);
    const copy = await startTask(t, project.id, {
      type: 'marketing-copy',
      input: {},
    });
    const written = await waitForTask(t, project.id, copy.id);
    expect(written.status).toBe('SUCCEEDED');
    const refused = await postTask(
      t,
      project.id,
      editTask(written.assetIds[0]),
    ).expect(400);
    expect(refused.body).toMatchObject({
      error: 'Invalid input',
      details: [expect.objectContaining({ path: ['input', 'assetId'] })],
    });
    expect(images.requests).toHaveLength(0);
  });

  it('an input without instructions or with a count over 4 is refused with 400 under input', async () => {
    const { project, logo } = await projectWithLogo();
    const refused = await postTask(t, project.id, {
      type: 'logo-edit',
      input: { assetId: logo.id, count: 5 },
    }).expect(400);
    const paths = (
      refused.body as { details: { path: unknown[] }[] }
    ).details.map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        ['input', 'instructions'],
        ['input', 'count'],
      ]),
    );
  });

  it('the provider’s 400 fails the task as refused with its message, after one call', async () => {
    const { project, logo } = await projectWithLogo();
    images.respondWith(Replies.error(400, REFUSAL));
    const task = await startTask(t, project.id, editTask(logo.id, 2));
    const done = await waitForTask(t, project.id, task.id);
    expect(done).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      assetIds: [],
      error: { code: 'refused', message: REFUSAL },
    });
    expect(edits()).toHaveLength(1);
  });

  it('a cancel closes the open edit call and keeps nothing', async () => {
    const { project, logo } = await projectWithLogo();
    images.respondWith(Replies.noAnswer());
    const task = await startTask(t, project.id, editTask(logo.id));
    await images.waitUntil(() => images.openCalls === 1);
    expect((await waitUntilRunning(t, project.id, task.id)).status).toBe(
      'RUNNING',
    );
    const cancelled = await cancelTask(t, project.id, task.id).expect(200);
    expect((cancelled.body as { task: TaskBody }).task.status).toBe(
      'CANCELLED',
    );
    await images.waitUntil(() => edits()[0]?.closedEarly === true);
    expect(edits()).toHaveLength(1);
    // The one kept logo the edit started from, nothing more.
    expect(await rowsOf(t, 'assets', project.id)).toBe(1);
  });
});
