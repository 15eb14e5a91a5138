import request from 'supertest';
import { keepLogo } from '../../../support/asset-client';
import {
  EventStreamClient,
  type ChangeEventBody,
} from '../../../support/event-stream-client';
import { DevImageApi, Replies } from '../../../support/fake-image-api';
import { listen, until } from '../../../support/pending-request';
import { createProject } from '../../../support/project-fixtures';
import {
  cancelTask,
  LOGO_TASK_INPUT,
  pollUntil,
  postTask,
  readProject,
  readTask,
  rowsOf,
  sectionOf,
  startTask,
  waitForTask,
  waitUntilRunning,
  type TaskBody,
} from '../../../support/task-client';
import { Database } from '../../../../src/database/database.service';
import { ProjectScope } from '../../../../src/project-scope/project-scope.repository';
import { TasksRepository } from '../../../../src/tasks/tasks.repository';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * A task keeps each result as it is made, with its progress: what was
 * drawn (and paid for) before a failure stays, a retry goes on from it,
 * and every result is one asset.created and one task.updated. A task
 * whose results would pass ASSET_MAX_PER_PROJECT is refused at creation;
 * the brand kit's files replace the earlier kit's and are not counted.
 * The image API is the dev image API on a local port; runs on SQLite and
 * PostgreSQL.
 */

const MAX_ASSETS = 4;

const logoTask = (count: number) => ({
  type: 'logo',
  input: { ...LOGO_TASK_INPUT, count },
});

describe('Task progress and partial results', () => {
  let images: DevImageApi;
  let t: TestApp;
  let base: string;
  const streams: EventStreamClient[] = [];

  beforeAll(async () => {
    images = await DevImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: images.url,
      ASSET_MAX_PER_PROJECT: String(MAX_ASSETS),
      TASK_MAX_ATTEMPTS: '2',
      TASK_RETRY_DELAY_MS: '50',
    });
    base = await listen(t);
  });
  afterEach(async () => {
    await Promise.all(streams.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await t?.close();
    await images?.close();
  });
  beforeEach(async () => {
    images.reset();
    await t.reset();
  });

  const runToEnd = async (
    projectId: string,
    body: unknown,
  ): Promise<TaskBody> => {
    const task = await startTask(t, projectId, body);
    return waitForTask(t, projectId, task.id);
  };

  const assetIdsOf = async (projectId: string) =>
    (await readProject(t, projectId)).assets.map((asset) => asset.id).sort();

  it('a logo task refused at its second image keeps the first', async () => {
    images.respondNext(Replies.image(), Replies.moderationBlocked());
    const project = await createProject(t);
    const task = await runToEnd(project.id, logoTask(2));
    expect(task).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      progress: { done: 1, total: 2 },
      error: { code: 'moderation_blocked' },
    });
    expect(task.assetIds).toHaveLength(1);
    // Two calls, both paid for by the provider's count; the refused one is
    // not retried, and the drawn one is the project's asset.
    expect(images.requests).toHaveLength(2);
    expect(await assetIdsOf(project.id)).toEqual(task.assetIds);
    const kept = await request(t.server)
      .get(`/api/projects/${project.id}/assets/${task.assetIds[0]}`)
      .expect(200);
    expect(kept.body.asset).toMatchObject({
      kind: 'logo',
      sectionId: task.sectionId,
    });
  });

  it('a retry goes on from the results kept: it draws only the rest, and no result is kept twice', async () => {
    images.respondNext(
      Replies.image(),
      Replies.error(500, 'The server had an error'),
    );
    const project = await createProject(t);
    const task = await runToEnd(project.id, logoTask(2));
    expect(task).toMatchObject({
      status: 'SUCCEEDED',
      attempts: 2,
      progress: { done: 2, total: 2 },
      error: null,
    });
    // Two calls on the first attempt, one on the second.
    expect(images.requests).toHaveLength(3);
    expect(new Set(task.assetIds).size).toBe(2);
    expect(await assetIdsOf(project.id)).toEqual([...task.assetIds].sort());
  });

  it("progress 1/3, 2/3, 3/3 reaches the project's change events, each with its asset", async () => {
    const project = await createProject(t);
    const events = await EventStreamClient.open(
      `${base}/api/projects/${project.id}/events`,
      {},
    );
    streams.push(events);
    const task = await runToEnd(project.id, logoTask(3));
    expect(task.status).toBe('SUCCEEDED');
    const ofTask = (event: ChangeEventBody) =>
      event.type === 'task.updated' && event.data.taskId === task.id;
    await until(
      () =>
        events
          .changes()
          .some((event) => ofTask(event) && event.data.status === 'SUCCEEDED'),
      'the task.updated of SUCCEEDED',
    );
    const changes = events.changes();
    const progress = changes
      .filter(ofTask)
      .map((event) => [event.data.status, event.data.progress]);
    expect(progress).toEqual([
      ['QUEUED', { done: 0, total: 3 }],
      ['RUNNING', { done: 0, total: 3 }],
      ['RUNNING', { done: 1, total: 3 }],
      ['RUNNING', { done: 2, total: 3 }],
      ['RUNNING', { done: 3, total: 3 }],
      ['SUCCEEDED', { done: 3, total: 3 }],
    ]);
    // Each result's asset.created came in its keep's transaction: the
    // same ETag as the task.updated that counted it.
    const created = changes.filter((event) => event.type === 'asset.created');
    expect(created.map((event) => event.data.assetId)).toEqual(task.assetIds);
    const counted = changes.filter(
      (event) =>
        ofTask(event) &&
        event.data.status === 'RUNNING' &&
        (event.data.progress as { done: number }).done > 0,
    );
    expect(created.map((event) => event.data.etag)).toEqual(
      counted.map((event) => event.data.etag),
    );
  });

  it('a task cancelled after its first image keeps that image, and nothing more', async () => {
    images.respondNext(Replies.image(), Replies.noAnswer());
    const project = await createProject(t);
    const queued = await startTask(t, project.id, logoTask(2));
    await pollUntil(
      () => readTask(t, project.id, queued.id),
      (task) => task.progress.done === 1,
    );
    const cancelled = await cancelTask(t, project.id, queued.id).expect(200);
    expect(cancelled.body.task).toMatchObject({
      status: 'CANCELLED',
      progress: { done: 1, total: 2 },
    });
    expect(cancelled.body.task.assetIds).toHaveLength(1);
    // The open call is closed, and nothing it could still bring is kept.
    await images.waitUntil(() => images.openCalls === 0);
    expect(await assetIdsOf(project.id)).toEqual(cancelled.body.task.assetIds);
    expect(await readTask(t, project.id, queued.id)).toMatchObject({
      status: 'CANCELLED',
      progress: { done: 1, total: 2 },
    });
  });

  it('one result index is kept once: of two keeps of it racing, only one moves the task on', async () => {
    images.respondWith(Replies.noAnswer());
    const project = await createProject(t);
    const queued = await startTask(t, project.id, logoTask(2));
    const running = await waitUntilRunning(t, project.id, queued.id);
    expect(running.progress).toEqual({ done: 0, total: 2 });
    const db = t.app.get(Database);
    const tasks = t.app.get(TasksRepository);
    const scope = t.app.get(ProjectScope);
    const keepIndexZero = (assetId: string) =>
      db.transaction(async (transaction) => {
        const moved = await tasks.move(
          transaction,
          queued.id,
          {
            statuses: ['RUNNING'],
            attempts: running.attempts,
            progress: { done: 0, total: 2 },
          },
          {
            status: 'RUNNING',
            progress: { done: 1, total: 2 },
            assetIds: [assetId],
          },
        );
        if (moved) {
          await scope.advance(transaction, {
            projectId: project.id,
            missing: () => new Error('gone'),
          });
        }
        return moved;
      });
    const raced = await Promise.all([
      keepIndexZero('first'),
      keepIndexZero('second'),
    ]);
    expect(raced.filter(Boolean)).toHaveLength(1);
    const after = await readTask(t, project.id, queued.id);
    expect(after.progress).toEqual({ done: 1, total: 2 });
    expect(after.assetIds).toEqual([raced[0] ? 'first' : 'second']);
    await cancelTask(t, project.id, queued.id).expect(200);
  });

  it('a task whose results would pass the asset limit is 409 task_exceeds_asset_limit at creation, nothing queued or drawn', async () => {
    const project = await createProject(t);
    await keepLogo(t, project.id).expect(201);
    await keepLogo(t, project.id).expect(201);
    const callsBefore = images.requests.length;
    const refused = await postTask(t, project.id, logoTask(3))
      .set('Idempotency-Key', 'three-logos')
      .expect(409);
    expect(refused.body).toEqual({
      error:
        'The task would keep 3 assets and the project has room for 2 more; ask for at most 2 or delete some first',
      code: 'task_exceeds_asset_limit',
    });
    expect(await rowsOf(t, 'tasks', project.id)).toBe(0);
    // The key was not answered: the same key with a body that fits runs.
    const fits = await postTask(t, project.id, logoTask(2))
      .set('Idempotency-Key', 'three-logos')
      .expect(202);
    expect(fits.body.task.progress).toEqual({ done: 0, total: 2 });
    await waitForTask(t, project.id, fits.body.task.id as string);
    expect(images.requests.length).toBe(callsBefore + 2);
    // Full now: the limit's own code, as for a kept logo.
    const full = await postTask(t, project.id, logoTask(1)).expect(409);
    expect(full.body.code).toBe('asset_limit_reached');
    expect(await rowsOf(t, 'tasks', project.id)).toBe(1);
  });

  it('a brand kit made twice keeps one kit’s files, and they do not count against the asset limit', async () => {
    const project = await createProject(t);
    const logo = (await keepLogo(t, project.id).expect(201)).body.asset as {
      id: string;
    };
    const state = await readProject(t, project.id);
    await request(t.server)
      .put(
        `/api/projects/${project.id}/sections/${sectionOf(state, 'LOGO').id}/selection`,
      )
      .send({ assetId: logo.id })
      .expect(200);
    const kit = { type: 'brand-kit', input: {} };
    const first = await runToEnd(project.id, kit);
    expect(first).toMatchObject({
      status: 'SUCCEEDED',
      progress: { done: 8, total: 8 },
    });
    const second = await runToEnd(project.id, kit);
    expect(second.status).toBe('SUCCEEDED');
    expect(second.assetIds).toHaveLength(8);
    // The second kit's files replaced the first's: the logo and 8 files.
    expect(await assetIdsOf(project.id)).toEqual(
      [logo.id, ...second.assetIds].sort(),
    );
    for (const gone of first.assetIds) {
      await request(t.server)
        .get(`/api/projects/${project.id}/assets/${gone}`)
        .expect(404);
    }
    await request(t.server)
      .get(`/api/projects/${project.id}/brand-kit.zip`)
      .expect(200);
    // 9 assets, 1 counted: three more logos fit under 4.
    const logos = await runToEnd(project.id, logoTask(3));
    expect(logos.status).toBe('SUCCEEDED');
    expect(await rowsOf(t, 'assets', project.id)).toBe(12);
    // And a kit is made at a full project.
    const third = await runToEnd(project.id, kit);
    expect(third.status).toBe('SUCCEEDED');
    expect(await rowsOf(t, 'assets', project.id)).toBe(12);
  });
});
