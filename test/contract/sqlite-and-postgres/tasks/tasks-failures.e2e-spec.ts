import request from 'supertest';
import { DevTextApi } from '../../../../dev-servers/text-api';
import { DevImageApi, Replies } from '../../../support/fake-image-api';
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
 * How tasks end when they do not succeed: a provider's refusal (never
 * retried), an outage (retried up to TASK_MAX_ATTEMPTS), a cancel or a
 * deleted project while the upstream call is open (that call is closed,
 * nothing is kept). Upstream calls are counted by the dev image and text
 * APIs, and they record when the service closed a call; the bound on that
 * is measured between two server-side clocks of this machine: the task's
 * finishedAt (written by the cancel) and the dev server's closedAt.
 */

const CANCEL_CHECK_MS = 100;
/** Scheduling slack on a shared machine, beyond one cancel check. */
const CLOSE_MARGIN_MS = 1500;
const REFUSAL = 'Your request was rejected as a result of our safety system.';

describe('Tasks that fail, are cancelled or lose their project', () => {
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
      TEXT_API_MAX_ATTEMPTS: '1',
      TASK_MAX_ATTEMPTS: '2',
      TASK_RETRY_DELAY_MS: '50',
      TASK_CANCEL_CHECK_MS: String(CANCEL_CHECK_MS),
    });
  });
  afterAll(async () => {
    await t?.close();
    await images?.close();
    await texts?.close();
  });
  beforeEach(async () => {
    images.reset();
    texts.requests.length = 0;
    await t.reset();
  });

  const runToEnd = async (
    projectId: string,
    body?: unknown,
  ): Promise<TaskBody> => {
    const task = await startTask(t, projectId, body);
    return waitForTask(t, projectId, task.id);
  };

  /** A logo task whose one image call is open at the dev image API. */
  const logoTaskInFlight = async (projectId: string) => {
    images.respondWith(Replies.noAnswer());
    const task = await startTask(t, projectId);
    await images.waitUntil(() => images.openCalls === 1);
    expect((await waitUntilRunning(t, projectId, task.id)).status).toBe(
      'RUNNING',
    );
    return task;
  };

  describe('a refusal is not retried', () => {
    it('the image API’s 400 fails the logo task as refused with the provider’s message, after one call', async () => {
      images.respondWith(Replies.error(400, REFUSAL));
      const project = await createProject(t);
      const task = await runToEnd(project.id);
      expect(task).toMatchObject({
        status: 'FAILED',
        attempts: 1,
        assetIds: [],
        error: { code: 'refused', message: REFUSAL },
      });
      expect(images.requests).toHaveLength(1);
      const state = await readProject(t, project.id);
      expect(sectionOf(state, 'LOGO').status).toBe('PENDING');
      expect(agentOf(state, 'DESIGN').status).toBe('IDLE');
    });

    it('the text model’s refusal fails the marketing-copy task as refused with the model’s message, after one call', async () => {
      texts.replyNext({ kind: 'refusal' });
      const project = await createProject(t);
      const task = await runToEnd(project.id, {
        type: 'marketing-copy',
        input: {},
      });
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

    it('the text API’s 400 fails the landing-page task as refused with the provider’s message, after one call', async () => {
      texts.replyNext({ kind: 'error', status: 400, message: REFUSAL });
      const project = await createProject(t);
      const task = await runToEnd(project.id, {
        type: 'landing-page',
        input: {},
      });
      expect(task).toMatchObject({
        status: 'FAILED',
        attempts: 1,
        error: { code: 'refused', message: REFUSAL },
      });
      expect(texts.requests).toHaveLength(1);
    });
  });

  describe('an outage is retried up to TASK_MAX_ATTEMPTS', () => {
    it('a 500 then a drawn logo: SUCCEEDED on the second attempt, two calls', async () => {
      images.respondNext(Replies.error(500, 'The server had an error'));
      const project = await createProject(t);
      const task = await runToEnd(project.id);
      expect(task).toMatchObject({
        status: 'SUCCEEDED',
        attempts: 2,
        error: null,
      });
      expect(task.assetIds).toHaveLength(1);
      expect(images.requests).toHaveLength(2);
    });

    it('always 500: FAILED after two attempts with the upstream error, two calls', async () => {
      images.respondWith(Replies.error(500, 'The server had an error'));
      const project = await createProject(t);
      const task = await runToEnd(project.id);
      expect(task).toMatchObject({
        status: 'FAILED',
        attempts: 2,
        assetIds: [],
        error: { code: 'upstream_error' },
      });
      expect(images.requests).toHaveLength(2);
      expect(sectionOf(await readProject(t, project.id), 'LOGO').status).toBe(
        'PENDING',
      );
    });
  });

  describe('cancelling a running task', () => {
    it('answers CANCELLED at once, closes the upstream call within a cancel check, keeps nothing, and a second cancel is 409', async () => {
      const project = await createProject(t);
      const task = await logoTaskInFlight(project.id);
      const during = await readProject(t, project.id);
      expect(sectionOf(during, 'LOGO').status).toBe('IN_PROGRESS');

      const cancelled = await cancelTask(t, project.id, task.id).expect(200);
      const answered = (cancelled.body as { task: TaskBody }).task;
      expect(answered).toMatchObject({ status: 'CANCELLED', assetIds: [] });
      expect(answered.finishedAt).toEqual(expect.any(String));

      await images.waitUntil(() => images.requests[0].closedEarly);
      const closedAt = images.requests[0].closedAt!;
      expect(closedAt - Date.parse(answered.finishedAt!)).toBeLessThanOrEqual(
        CANCEL_CHECK_MS + CLOSE_MARGIN_MS,
      );
      expect(images.requests).toHaveLength(1);

      const state = await readProject(t, project.id);
      expect(sectionOf(state, 'LOGO').status).toBe('PENDING');
      expect(agentOf(state, 'DESIGN').status).toBe('IDLE');
      expect(await rowsOf(t, 'assets', project.id)).toBe(0);

      const again = await cancelTask(t, project.id, task.id).expect(409);
      expect(again.body).toMatchObject({ error: expect.any(String) });
      const read = await request(t.server)
        .get(`/api/projects/${project.id}/tasks/${task.id}`)
        .expect(200);
      expect((read.body as { task: TaskBody }).task.status).toBe('CANCELLED');
    });

    it('closes a running text call the same way', async () => {
      texts.replyNext({ kind: 'answer', latencyMs: 60_000 });
      const project = await createProject(t);
      const task = await startTask(t, project.id, {
        type: 'marketing-copy',
        input: {},
      });
      await waitUntilRunning(t, project.id, task.id);
      for (let i = 0; i < 200 && texts.requests.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(texts.requests).toHaveLength(1);
      const answered = (
        (await cancelTask(t, project.id, task.id).expect(200)).body as {
          task: TaskBody;
        }
      ).task;
      for (let i = 0; i < 200 && !texts.requests[0].closedEarly; i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(texts.requests[0].closedEarly).toBe(true);
      expect(
        texts.requests[0].closedAt! - Date.parse(answered.finishedAt!),
      ).toBeLessThanOrEqual(CANCEL_CHECK_MS + CLOSE_MARGIN_MS);
      expect(await rowsOf(t, 'assets', project.id)).toBe(0);
      expect(
        sectionOf(await readProject(t, project.id), 'MARKETING').status,
      ).toBe('PENDING');
    });

    it('a finished task cannot be cancelled: 409', async () => {
      const project = await createProject(t);
      const task = await runToEnd(project.id);
      expect(task.status).toBe('SUCCEEDED');
      await cancelTask(t, project.id, task.id).expect(409);
      expect(await rowsOf(t, 'assets', project.id)).toBe(1);
    });
  });

  it('deleting the project while a task runs closes its upstream call and leaves no task or asset rows', async () => {
    const project = await createProject(t);
    await logoTaskInFlight(project.id);
    await request(t.server).delete(`/api/projects/${project.id}`).expect(200);
    await images.waitUntil(() => images.requests[0].closedEarly);
    expect(images.requests).toHaveLength(1);
    expect(await rowsOf(t, 'tasks', project.id)).toBe(0);
    expect(await rowsOf(t, 'assets', project.id)).toBe(0);
    await request(t.server).get(`/api/projects/${project.id}`).expect(404);
  });
});
