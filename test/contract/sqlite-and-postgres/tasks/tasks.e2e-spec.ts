import request from 'supertest';
import { DevTextApi } from '../../../../dev-servers/text-api';
import { getBytes, pathOf } from '../../../support/asset-client';
import { DevImageApi, Replies } from '../../../support/fake-image-api';
import { createProject } from '../../../support/project-fixtures';
import {
  agentOf,
  cancelTask,
  LOGO_TASK_INPUT,
  postTask,
  readProject,
  sectionOf,
  startTask,
  taskPath,
  tasksOf,
  waitForTask,
  waitUntilRunning,
  type TaskBody,
} from '../../../support/task-client';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Background tasks end to end, through the HTTP API only: a logo task
 * drawn by the dev image API, marketing copy and a landing page written
 * by the dev text API, what the project shows while and after they run,
 * and the routes' refusals and limits. Runs on SQLite and PostgreSQL.
 */

/** Long enough that a task is seen RUNNING; every test cancels it. */
const SLOW_MS = 20_000;

describe('Tasks', () => {
  let images: DevImageApi;
  let texts: DevTextApi;
  let t: TestApp;

  beforeAll(async () => {
    images = await DevImageApi.start();
    texts = await DevTextApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: images.url,
      TEXT_API_URL: texts.url,
      TEXT_API_KEY: 'sk-text',
      TASK_RETRY_DELAY_MS: '50',
      TASK_CANCEL_CHECK_MS: '100',
      TASK_MAX_QUEUED_PER_PROJECT: '1',
    });
  });
  afterAll(async () => {
    await t?.close();
    await images?.close();
    await texts?.close();
  });
  beforeEach(async () => {
    images.reset();
    await t.reset();
  });

  const runToEnd = async (projectId: string, body?: unknown) => {
    const task = await startTask(t, projectId, body);
    return waitForTask(t, projectId, task.id);
  };

  it('a new project has every section PENDING, every agent IDLE and no tasks', async () => {
    const project = await createProject(t);
    const state = await readProject(t, project.id);
    expect(state.sections.map((s) => s.status)).toEqual(
      Array(8).fill('PENDING'),
    );
    expect(state.agents.map((a) => a.status)).toEqual(['IDLE', 'IDLE', 'IDLE']);
    expect(state.tasks).toEqual([]);
    const list = await request(t.server).get(tasksOf(project.id)).expect(200);
    expect(list.body).toEqual({ tasks: [], nextCursor: null });
  });

  it('a logo task of count 3 answers 202 QUEUED with its Location, then keeps 3 logos in LOGO and leaves the section to review', async () => {
    const project = await createProject(t);
    const response = await postTask(t, project.id, {
      type: 'logo',
      input: { ...LOGO_TASK_INPUT, count: 3 },
    }).expect(202);
    const queued = (response.body as { task: TaskBody }).task;
    expect(queued).toMatchObject({
      projectId: project.id,
      type: 'logo',
      status: 'QUEUED',
      assetIds: [],
      error: null,
      attempts: 0,
      startedAt: null,
      finishedAt: null,
    });
    expect(response.headers.location).toBe(
      new URL(taskPath(project.id, queued.id), response.request.url).href,
    );

    const done = await waitForTask(t, project.id, queued.id);
    expect(done).toMatchObject({
      status: 'SUCCEEDED',
      attempts: 1,
      error: null,
    });
    expect(done.startedAt).toEqual(expect.any(String));
    expect(done.finishedAt).toEqual(expect.any(String));
    expect(done.assetIds).toHaveLength(3);
    expect(images.requests).toHaveLength(3);

    const state = await readProject(t, project.id);
    const logo = sectionOf(state, 'LOGO');
    expect(done.sectionId).toBe(logo.id);
    expect(done.agentId).toBe(agentOf(state, 'DESIGN').id);
    const kept = state.assets.filter((asset) => asset.sectionId === logo.id);
    expect(kept.map((asset) => asset.id).sort()).toEqual(
      [...done.assetIds].sort(),
    );
    expect(kept.every((asset) => asset.kind === 'logo')).toBe(true);
    expect(logo.status).toBe('REVIEW');
    expect(state.agents.map((a) => a.status)).toEqual(['IDLE', 'IDLE', 'IDLE']);
    expect(state.tasks.map((task) => task.id)).toEqual([queued.id]);

    const listed = await request(t.server).get('/api/projects').expect(200);
    const mine = (
      listed.body as {
        projects: Array<{ id: string; _count: { tasks: number } }>;
      }
    ).projects.find((p) => p.id === project.id)!;
    expect(mine._count.tasks).toBe(1);

    await request(t.server)
      .put(`/api/projects/${project.id}/sections/${logo.id}/selection`)
      .send({ assetId: done.assetIds[1] })
      .expect(200);
    const chosen = sectionOf(await readProject(t, project.id), 'LOGO');
    expect(chosen).toMatchObject({
      status: 'DONE',
      selectedAssetId: done.assetIds[1],
    });
  });

  it('a marketing-copy task keeps one JSON asset in MARKETING: a tagline, a description and three posts', async () => {
    const project = await createProject(t, { name: 'Rocket Mail' });
    const done = await runToEnd(project.id, {
      type: 'marketing-copy',
      input: { tone: 'friendly', audience: 'small teams' },
    });
    expect(done).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });
    expect(done.assetIds).toHaveLength(1);
    const state = await readProject(t, project.id);
    const asset = state.assets.find((a) => a.id === done.assetIds[0])!;
    expect(asset).toMatchObject({
      kind: 'marketing-copy',
      contentType: 'application/json',
      sectionId: sectionOf(state, 'MARKETING').id,
    });
    expect(sectionOf(state, 'MARKETING').status).toBe('REVIEW');
    const content = await getBytes(t, pathOf(asset.url)).expect(200);
    const copy = JSON.parse((content.body as Buffer).toString('utf8')) as {
      tagline: unknown;
      description: unknown;
      posts: unknown[];
    };
    expect(copy).toEqual({
      tagline: expect.any(String),
      description: expect.any(String),
      posts: [expect.any(String), expect.any(String), expect.any(String)],
    });
    expect(copy.tagline).toContain('Rocket Mail');
  });

  it('a landing-page task keeps one HTML page in CODE, served sandboxed without allow-same-origin and with nosniff', async () => {
    const project = await createProject(t, { name: 'Quiet Harbor' });
    const done = await runToEnd(project.id, {
      type: 'landing-page',
      input: {},
    });
    expect(done).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });
    const state = await readProject(t, project.id);
    const asset = state.assets.find((a) => a.id === done.assetIds[0])!;
    expect(asset).toMatchObject({
      kind: 'landing-page',
      contentType: 'text/html',
      sectionId: sectionOf(state, 'CODE').id,
    });
    expect(agentOf(state, 'CODE').id).toBe(done.agentId);
    const page = await getBytes(t, pathOf(asset.url)).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const policy = page.headers['content-security-policy'];
    expect(policy).toMatch(/(^|;)\s*sandbox\s*(;|$)/);
    expect(policy).not.toContain('allow-same-origin');
    expect(policy).not.toContain('allow-scripts');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect((page.body as Buffer).toString('utf8')).toContain('Quiet Harbor');
  });

  it('lists a project’s tasks newest first, a page at a time, and refuses a cursor it did not make', async () => {
    const project = await createProject(t);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await runToEnd(project.id)).id);
    const first = await request(t.server)
      .get(tasksOf(project.id))
      .query({ limit: 1 })
      .expect(200);
    const page1 = first.body as { tasks: TaskBody[]; nextCursor: string };
    expect(page1.tasks.map((task) => task.id)).toEqual([ids[2]]);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const second = await request(t.server)
      .get(tasksOf(project.id))
      .query({ limit: 2, cursor: page1.nextCursor })
      .expect(200);
    expect(
      (second.body as { tasks: TaskBody[] }).tasks.map((task) => task.id),
    ).toEqual([ids[1], ids[0]]);
    expect((second.body as { nextCursor: unknown }).nextCursor).toBeNull();

    const bad = await request(t.server)
      .get(tasksOf(project.id))
      .query({ cursor: 'not-a-cursor' })
      .expect(400);
    expect(bad.body).toMatchObject({ error: expect.any(String) });
    await request(t.server)
      .get(tasksOf(project.id))
      .query({ limit: 0 })
      .expect(400);
  });

  it('answers 404 for an unknown project, an unknown task and another project’s task', async () => {
    const project = await createProject(t);
    const other = await createProject(t, { name: 'Other' });
    const task = await runToEnd(project.id);
    const unknown = '019aa8f4-1c2d-7e3f-8a4b-5c6d7e8f9a0b';

    const projectMissing = await postTask(t, unknown).expect(404);
    expect(projectMissing.body).toMatchObject({ error: 'Project not found' });
    await request(t.server).get(tasksOf(unknown)).expect(404);
    await request(t.server).get(taskPath(unknown, task.id)).expect(404);

    const taskMissing = await request(t.server)
      .get(taskPath(project.id, unknown))
      .expect(404);
    expect(taskMissing.body).toMatchObject({ error: 'Task not found' });
    await cancelTask(t, project.id, unknown).expect(404);
    await request(t.server).get(taskPath(project.id, 'not-an-id')).expect(404);

    await request(t.server).get(taskPath(other.id, task.id)).expect(404);
    await cancelTask(t, other.id, task.id).expect(404);
    expect(images.requests).toHaveLength(1);
  });

  it('answers 400 with the issues for an unknown type, an invalid logo input (paths under input), count 5 and a body that is not JSON', async () => {
    const project = await createProject(t);
    const details = async (body: unknown) => {
      const response = await postTask(t, project.id, body).expect(400);
      expect(response.body).toMatchObject({
        error: 'Invalid input',
        details: expect.any(Array),
      });
      return (response.body as { details: Array<{ path: unknown[] }> }).details;
    };
    expect((await details({ type: 'poem', input: {} }))[0].path).toEqual([
      'type',
    ]);
    const invalid = await details({
      type: 'logo',
      input: { companyName: '', style: 42 },
    });
    expect(invalid.length).toBeGreaterThan(0);
    for (const issue of invalid) expect(issue.path[0]).toBe('input');
    expect(
      await details({ type: 'logo', input: { ...LOGO_TASK_INPUT, count: 5 } }),
    ).toEqual([expect.objectContaining({ path: ['input', 'count'] })]);
    await details({ type: 'logo', input: 'a string' });

    const notJson = await request(t.server)
      .post(tasksOf(project.id))
      .set('Content-Type', 'application/json')
      .send('{"type": "logo", ')
      .expect(400);
    expect(notJson.body).toMatchObject({ error: expect.any(String) });
    expect(JSON.stringify(notJson.body)).not.toMatch(/at .*\.(ts|js):\d+/);
    expect((await readProject(t, project.id)).tasks).toEqual([]);
    expect(images.requests).toHaveLength(0);
  });

  it('an Idempotency-Key answers the same task again for the same body, marked a replay, and 422 for another body', async () => {
    const project = await createProject(t);
    const body = { type: 'logo', input: LOGO_TASK_INPUT };
    const first = await postTask(t, project.id, body)
      .set('Idempotency-Key', 'logo-once')
      .expect(202);
    const again = await postTask(t, project.id, body)
      .set('Idempotency-Key', 'logo-once')
      .expect(202);
    const task = (first.body as { task: TaskBody }).task;
    expect((again.body as { task: TaskBody }).task.id).toBe(task.id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // A replay's Location is built for the request that replays it (here
    // another port of 127.0.0.1): the same path.
    expect(new URL(String(again.headers.location)).pathname).toBe(
      new URL(String(first.headers.location)).pathname,
    );
    await postTask(t, project.id, {
      type: 'logo',
      input: { ...LOGO_TASK_INPUT, count: 2 },
    })
      .set('Idempotency-Key', 'logo-once')
      .expect(422);
    await waitForTask(t, project.id, task.id);
    const list = await request(t.server).get(tasksOf(project.id)).expect(200);
    expect((list.body as { tasks: TaskBody[] }).tasks).toHaveLength(1);
    expect(images.requests).toHaveLength(1);
  });

  it('refuses a task over TASK_MAX_QUEUED_PER_PROJECT with 429 and Retry-After, and takes one again once it finished', async () => {
    images.respondWith(Replies.slow(Replies.image(), SLOW_MS));
    const project = await createProject(t);
    const running = await startTask(t, project.id);
    const refused = await postTask(t, project.id).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({
      error: expect.any(String),
      code: 'too_many_tasks',
    });

    await cancelTask(t, project.id, running.id).expect(200);
    images.respondWith(Replies.image());
    const next = await runToEnd(project.id);
    expect(next.status).toBe('SUCCEEDED');
  });

  it('while a task runs its section is IN_PROGRESS and its agent WORKING, and every move changes the project’s ETag', async () => {
    images.respondWith(Replies.slow(Replies.image(), SLOW_MS));
    const project = await createProject(t);
    const before = await readProject(t, project.id);
    const task = await startTask(t, project.id);
    const running = await waitUntilRunning(t, project.id, task.id);
    expect(running.status).toBe('RUNNING');
    const during = await readProject(t, project.id);
    expect(sectionOf(during, 'LOGO').status).toBe('IN_PROGRESS');
    expect(agentOf(during, 'DESIGN').status).toBe('WORKING');
    expect(agentOf(during, 'MARKETING').status).toBe('IDLE');
    expect(during.etag).not.toBe(before.etag);

    await cancelTask(t, project.id, task.id).expect(200);
    const after = await readProject(t, project.id);
    expect(sectionOf(after, 'LOGO').status).toBe('PENDING');
    expect(agentOf(after, 'DESIGN').status).toBe('IDLE');
    expect(after.etag).not.toBe(during.etag);
  });

  it('a running task that ends moves the project’s ETag on', async () => {
    const project = await createProject(t);
    // Slow enough that the project is read while the task runs.
    images.respondWith(Replies.slow(Replies.image(), 1500));
    const queued = await startTask(t, project.id);
    await waitUntilRunning(t, project.id, queued.id);
    const before = await readProject(t, project.id);
    expect(sectionOf(before, 'LOGO').status).toBe('IN_PROGRESS');
    const task = await waitForTask(t, project.id, queued.id);
    expect(task.status).toBe('SUCCEEDED');
    const after = await readProject(t, project.id);
    expect(after.etag).not.toBe(before.etag);
    expect(sectionOf(after, 'LOGO').status).toBe('REVIEW');
  });
});
