import sharp from 'sharp';
import request from 'supertest';
import { DevTextApi } from '../../../../dev-servers/text-api';
import {
  schemaViolation,
  strictSchemaRefusal,
} from '../../../../dev-servers/text-api/strict-schema';
import { readKeptWireframe } from '../../../../src/wireframes/wireframe';
import { wireframeOutline } from '../../../../src/wireframes/wireframe-outline';
import { getBytes, pathOf } from '../../../support/asset-client';
import {
  ASSET_STORES,
  startAssetStore,
  type AssetStoreUnderTest,
} from '../../../support/asset-stores';
import { createProject } from '../../../support/project-fixtures';
import {
  agentOf,
  cancelTask,
  readProject,
  rowsOf,
  sectionOf,
  startTask,
  waitForTask,
  waitUntilRunning,
  type TaskBody,
} from '../../../support/task-client';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * `wireframe` tasks end to end through the HTTP API, the code model being
 * the dev text API (which holds the schema it is sent to the provider's
 * strict mode and answers under it): the kept wireframe, its preview as
 * an image, the landing page that follows the chosen one, and the
 * answers that fail it. On SQLite and PostgreSQL, with both asset stores.
 */

interface ChatBody {
  messages: Array<{ role: string; content: string }>;
  response_format?: {
    type: string;
    json_schema: { name: string; schema: unknown; strict: boolean };
  };
}

interface ThumbnailedAsset {
  id: string;
  kind: string;
  contentType: string;
  fileName: string;
  sectionId: string;
  url: string;
  thumbnailUrl: string | null;
}

describe.each(ASSET_STORES)('Wireframe tasks (ASSET_STORE=%s)', (kind) => {
  let texts: DevTextApi;
  let store: AssetStoreUnderTest;
  let t: TestApp;

  beforeAll(async () => {
    texts = await DevTextApi.start();
    store = await startAssetStore(kind);
    t = await createTestApp({
      ...store.env,
      TEXT_API_URL: texts.url,
      TEXT_API_KEY: 'sk-text',
      TEXT_API_MAX_ATTEMPTS: '1',
      TASK_MAX_ATTEMPTS: '2',
      TASK_RETRY_DELAY_MS: '50',
      TASK_CANCEL_CHECK_MS: '100',
    });
  });
  afterAll(async () => {
    await t?.close();
    await store?.close();
    await texts?.close();
  });
  beforeEach(async () => {
    texts.requests.length = 0;
    await t.reset();
    await store.reset();
  });

  const runToEnd = async (projectId: string, body: unknown) => {
    const task = await startTask(t, projectId, body);
    return waitForTask(t, projectId, task.id);
  };
  const requestBody = (index: number) =>
    texts.requests[index].body as unknown as ChatBody;
  const assetOf = async (projectId: string, id: string) => {
    const state = await readProject(t, projectId);
    return (state.assets as unknown as ThumbnailedAsset[]).find(
      (asset) => asset.id === id,
    )!;
  };

  it('keeps a wireframe of the pages asked for, in order, valid under the strict schema the code model was sent', async () => {
    const project = await createProject(t, { name: 'Quiet Harbor' });
    const done = await runToEnd(project.id, {
      type: 'wireframe',
      input: { pages: ['home', 'pricing', 'about'], notes: 'Three plans.' },
    });
    expect(done).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });
    expect(texts.requests).toHaveLength(1);
    const sent = requestBody(0);
    expect(sent.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'wireframe', strict: true },
    });
    expect(strictSchemaRefusal(sent.response_format!.json_schema)).toBe(
      undefined,
    );
    const user = sent.messages.find((m) => m.role === 'user')!.content;
    expect(user).toContain('Name: Quiet Harbor');
    expect(user).toContain('Pages: home, pricing, about');
    expect(user).toContain('Notes: Three plans.');

    const state = await readProject(t, project.id);
    const asset = await assetOf(project.id, done.assetIds[0]);
    expect(asset).toMatchObject({
      kind: 'wireframe',
      contentType: 'application/json',
      fileName: 'wireframe.json',
      sectionId: sectionOf(state, 'WIREFRAME').id,
    });
    expect(agentOf(state, 'CODE').id).toBe(done.agentId);
    expect(sectionOf(state, 'WIREFRAME').status).toBe('REVIEW');
    const content = await getBytes(t, pathOf(asset.url)).expect(200);
    expect(content.headers['content-type']).toMatch(/^application\/json/);
    const kept = JSON.parse((content.body as Buffer).toString('utf8')) as {
      pages: Array<{ name: string; sections: unknown[] }>;
    };
    expect(kept.pages.map((page) => page.name)).toEqual([
      'home',
      'pricing',
      'about',
    ]);
    // Valid under the schema sent once its left-out nulls are put back.
    const withNulls = {
      pages: kept.pages.map((page) => ({
        name: page.name,
        sections: page.sections.map((section) => ({
          body: null,
          items: null,
          cta: null,
          ...(section as object),
        })),
      })),
    };
    expect(
      schemaViolation(sent.response_format!.json_schema.schema, withNulls),
    ).toBeUndefined();
  });

  it('plans the home page when no pages are named, and stores that default', async () => {
    const project = await createProject(t);
    const done = await runToEnd(project.id, { type: 'wireframe' });
    expect(done).toMatchObject({
      status: 'SUCCEEDED',
      input: { pages: ['home'] },
    });
    const asset = await assetOf(project.id, done.assetIds[0]);
    const content = await getBytes(t, pathOf(asset.url)).expect(200);
    const kept = readKeptWireframe(content.body as Buffer)!;
    expect(kept.pages.map((page) => page.name)).toEqual(['home']);
  });

  it('serves its preview as a PNG image at its thumbnailUrl, drawn from the wireframe', async () => {
    const project = await createProject(t);
    const done = await runToEnd(project.id, {
      type: 'wireframe',
      input: { pages: ['home', 'pricing'] },
    });
    const asset = await assetOf(project.id, done.assetIds[0]);
    expect(asset.thumbnailUrl).toBe(`${asset.url}?size=128`);
    const thumbnail = await getBytes(t, pathOf(asset.thumbnailUrl!)).expect(
      200,
    );
    expect(thumbnail.headers['content-type']).toBe('image/png');
    expect(thumbnail.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(thumbnail.body as Buffer).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 128, height: 128 });
    const stats = await sharp(thumbnail.body as Buffer).stats();
    // Grey boxes and dark headings, not an empty square.
    expect(stats.channels[0].min).toBeLessThan(160);
    const larger = await getBytes(t, `${pathOf(asset.url)}?size=512`).expect(
      200,
    );
    expect(await sharp(larger.body as Buffer).metadata()).toMatchObject({
      width: 512,
      height: 512,
    });
    // Other JSON still has none.
    const copy = await runToEnd(project.id, { type: 'marketing-copy' });
    const copyAsset = await assetOf(project.id, copy.assetIds[0]);
    expect(copyAsset.thumbnailUrl).toBeNull();
    const refused = await request(t.server)
      .get(`${pathOf(copyAsset.url)}?size=128`)
      .expect(400);
    expect(JSON.stringify(refused.body)).toContain(
      'Only PNG, JPEG, WebP and SVG assets and wireframes have renditions',
    );
  });

  it('a landing page follows the chosen wireframe: its code-model request carries the home sections in order', async () => {
    const project = await createProject(t, { name: 'Quiet Harbor' });
    const done = await runToEnd(project.id, {
      type: 'wireframe',
      input: { pages: ['pricing', 'home'] },
    });
    const asset = await assetOf(project.id, done.assetIds[0]);
    const kept = readKeptWireframe(
      (await getBytes(t, pathOf(asset.url)).expect(200)).body as Buffer,
    )!;
    const state = await readProject(t, project.id);
    await request(t.server)
      .put(
        `/api/projects/${project.id}/sections/${sectionOf(state, 'WIREFRAME').id}/selection`,
      )
      .send({ assetId: asset.id })
      .expect(200);
    expect(
      sectionOf(await readProject(t, project.id), 'WIREFRAME').status,
    ).toBe('DONE');

    texts.requests.length = 0;
    const page = await runToEnd(project.id, { type: 'landing-page' });
    expect(page).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });
    expect(texts.requests).toHaveLength(1);
    const [system, user] = requestBody(0).messages;
    const home = kept.pages.find((p) => p.name === 'home')!;
    expect(system.content).toContain(
      `build exactly its ${home.sections.length} sections, in the order listed`,
    );
    const lines = user.content.split('\n');
    const start = lines.indexOf('Wireframe sections, in order:');
    expect(start).toBeGreaterThan(-1);
    expect(lines.slice(start + 1)).toEqual(wireframeOutline(kept));
    expect(lines.slice(start + 1).map((line) => line.split(':')[0])).toEqual(
      home.sections.map((section, i) => `${i + 1}. ${section.type}`),
    );
    for (const section of home.sections)
      expect(user.content).toContain(JSON.stringify(section.heading));
    // The dev code model builds what it was asked for: the page shows them.
    const pageAsset = await assetOf(project.id, page.assetIds[0]);
    const html = (
      (await getBytes(t, pathOf(pageAsset.url)).expect(200)).body as Buffer
    ).toString('utf8');
    const shown = [...html.matchAll(/<section class="([a-z]+)"><h2>/g)].map(
      (match) => match[1],
    );
    expect(shown).toEqual(home.sections.map((section) => section.type));
  });

  it('a landing page without a chosen wireframe is asked for as before, even with a wireframe kept', async () => {
    const project = await createProject(t, { name: 'Quiet Harbor' });
    await runToEnd(project.id, { type: 'wireframe' });
    texts.requests.length = 0;
    const page = await runToEnd(project.id, { type: 'landing-page' });
    expect(page).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });
    const sent = requestBody(0);
    expect(sent.response_format).toBeUndefined();
    const text = sent.messages.map((m) => m.content).join('\n');
    expect(text).not.toMatch(/wireframe/i);
    expect(text).toContain('Name: Quiet Harbor');
  });

  it.each([
    ['not JSON', 'Here is your wireframe!'],
    [
      'another page',
      JSON.stringify({ pages: [{ name: 'about', sections: [] }] }),
    ],
    [
      'thirteen sections',
      JSON.stringify({
        pages: [
          {
            name: 'home',
            sections: Array(13).fill({
              type: 'hero',
              heading: 'H',
              body: null,
              items: null,
              cta: null,
            }),
          },
        ],
      }),
    ],
    [
      'a 10,000-character heading',
      JSON.stringify({
        pages: [
          {
            name: 'home',
            sections: [
              {
                type: 'hero',
                heading: 'h'.repeat(10_000),
                body: null,
                items: null,
                cta: null,
              },
            ],
          },
        ],
      }),
    ],
  ])(
    'an answer with %s fails the task as invalid_answer after its attempts, keeping nothing',
    async (_case, content) => {
      texts.replyNext({ kind: 'answer', content }, { kind: 'answer', content });
      const project = await createProject(t);
      const task = await runToEnd(project.id, { type: 'wireframe' });
      expect(task).toMatchObject({
        status: 'FAILED',
        attempts: 2,
        error: { code: 'invalid_answer' },
      });
      expect(task.error!.message).toMatch(/wireframe is invalid/);
      expect(texts.requests).toHaveLength(2);
      expect(await rowsOf(t, 'assets', project.id)).toBe(0);
      expect(
        sectionOf(await readProject(t, project.id), 'WIREFRAME').status,
      ).toBe('PENDING');
    },
  );

  it('an answer over 1 MB fails as invalid_answer at once, not retried', async () => {
    texts.replyNext({ kind: 'answer', content: 'x'.repeat(1024 * 1024 + 1) });
    const project = await createProject(t);
    const task = await runToEnd(project.id, { type: 'wireframe' });
    expect(task).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      error: { code: 'invalid_answer' },
    });
    expect(await rowsOf(t, 'assets', project.id)).toBe(0);
  });

  it('the code model’s refusal fails the task as refused with its message, after one call', async () => {
    texts.replyNext({ kind: 'refusal' });
    const project = await createProject(t);
    const task = await runToEnd(project.id, { type: 'wireframe' });
    expect(task).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      error: {
        code: 'refused',
        message: "I'm sorry, I can't help with that request.",
      },
    });
    expect(texts.requests).toHaveLength(1);
    expect(await rowsOf(t, 'assets', project.id)).toBe(0);
  });

  it('a cancel closes the running code-model call and keeps nothing', async () => {
    texts.replyNext({ kind: 'answer', latencyMs: 60_000 });
    const project = await createProject(t);
    const task = await startTask(t, project.id, { type: 'wireframe' });
    await waitUntilRunning(t, project.id, task.id);
    for (let i = 0; i < 200 && texts.requests.length === 0; i++)
      await new Promise((r) => setTimeout(r, 25));
    const answered = (
      (await cancelTask(t, project.id, task.id).expect(200)).body as {
        task: TaskBody;
      }
    ).task;
    expect(answered.status).toBe('CANCELLED');
    for (let i = 0; i < 200 && !texts.requests[0].closedEarly; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(texts.requests[0].closedEarly).toBe(true);
    expect(await rowsOf(t, 'assets', project.id)).toBe(0);
    expect(
      sectionOf(await readProject(t, project.id), 'WIREFRAME').status,
    ).toBe('PENDING');
  });

  it('refuses invalid input with 400 and its issues under input', async () => {
    const project = await createProject(t);
    const cases: unknown[] = [
      { pages: [] },
      { pages: ['Home'] },
      { pages: ['home', 'home'] },
      { pages: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] },
      { pages: ['a'.repeat(41)] },
      { pages: 'home' },
      { pages: [1] },
      { notes: 'n'.repeat(2001) },
      { notes: 5 },
    ];
    for (const input of cases) {
      const answer = await request(t.server)
        .post(`/api/projects/${project.id}/tasks`)
        .send({ type: 'wireframe', input })
        .expect(400);
      expect(answer.body).toMatchObject({ error: 'Invalid input' });
      expect(JSON.stringify(answer.body)).toContain('"input"');
    }
    expect(await rowsOf(t, 'tasks', project.id)).toBe(0);
  });
});
