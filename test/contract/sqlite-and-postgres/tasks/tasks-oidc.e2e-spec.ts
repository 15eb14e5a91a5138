import { exportJWK, generateKeyPair } from 'jose';
import request from 'supertest';
import { DevAuthProviderProcess } from '../../../support/dev-auth-provider-process';
import { DevImageApi } from '../../../support/fake-image-api';
import {
  LOGO_TASK_INPUT,
  tasksOf,
  taskPath,
  type TaskBody,
} from '../../../support/task-client';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Tasks and selections with AUTH_MODE=oidc: a project's tasks and results
 * are its owner's; anyone else is told the project (or task) does not
 * exist, and nothing of theirs moves. Runs on SQLite and PostgreSQL.
 */
describe('Tasks and selections with AUTH_MODE=oidc', () => {
  let provider: DevAuthProviderProcess;
  let images: DevImageApi;
  let t: TestApp;
  let alice: string;
  let bob: string;

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    const { privateKey } = await generateKeyPair('RS256', {
      extractable: true,
    });
    provider = await DevAuthProviderProcess.start({
      ...(await exportJWK(privateKey)),
      kid: 'tasks-oidc',
      alg: 'RS256',
      use: 'sig',
    });
    images = await DevImageApi.start();
    t = await createTestApp({
      AUTH_MODE: 'oidc',
      AUTH_ISSUER: provider.issuer,
      AUTH_AUDIENCE: 'workspace-api',
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: images.url,
      TASK_RETRY_DELAY_MS: '50',
      TASK_CANCEL_CHECK_MS: '100',
    });
    alice = await provider.token('alice');
    bob = await provider.token('bob');
  });
  afterAll(async () => {
    await t?.close();
    await images?.close();
    await provider?.stop();
  });

  /** Alice's project with one logo task run to the end. */
  async function aliceTask(): Promise<{
    projectId: string;
    logoSectionId: string;
    task: TaskBody;
  }> {
    const created = await request(t.server)
      .post('/api/projects')
      .set(as(alice))
      .send({ name: 'Site' })
      .expect(201);
    const project = created.body.project as {
      id: string;
      sections: Array<{ id: string; type: string }>;
    };
    const queued = await request(t.server)
      .post(tasksOf(project.id))
      .set(as(alice))
      .send({ type: 'logo', input: LOGO_TASK_INPUT })
      .expect(202);
    let task = (queued.body as { task: TaskBody }).task;
    for (
      let i = 0;
      i < 400 && ['QUEUED', 'RUNNING'].includes(task.status);
      i++
    ) {
      await new Promise((r) => setTimeout(r, 50));
      task = (
        (
          await request(t.server)
            .get(taskPath(project.id, task.id))
            .set(as(alice))
            .expect(200)
        ).body as { task: TaskBody }
      ).task;
    }
    expect(task.status).toBe('SUCCEEDED');
    return {
      projectId: project.id,
      logoSectionId: project.sections.find((s) => s.type === 'LOGO')!.id,
      task,
    };
  }

  it('the task routes need a token: 401 without one', async () => {
    const { projectId, task } = await aliceTask();
    await request(t.server).get(tasksOf(projectId)).expect(401);
    await request(t.server).get(taskPath(projectId, task.id)).expect(401);
    await request(t.server)
      .post(tasksOf(projectId))
      .send({ type: 'logo', input: LOGO_TASK_INPUT })
      .expect(401);
    await request(t.server)
      .post(`${taskPath(projectId, task.id)}/cancel`)
      .expect(401);
  });

  it('another user gets 404 from every task route of the owner’s project and queues nothing', async () => {
    const { projectId, task } = await aliceTask();
    const calls = images.requests.length;

    const created = await request(t.server)
      .post(tasksOf(projectId))
      .set(as(bob))
      .send({ type: 'logo', input: LOGO_TASK_INPUT })
      .expect(404);
    expect(created.body).toEqual({
      error: 'Project not found',
      code: 'project_not_found',
    });
    const listed = await request(t.server)
      .get(tasksOf(projectId))
      .set(as(bob))
      .expect(404);
    expect(listed.body).toEqual({
      error: 'Project not found',
      code: 'project_not_found',
    });
    await request(t.server)
      .get(taskPath(projectId, task.id))
      .set(as(bob))
      .expect(404);
    await request(t.server)
      .post(`${taskPath(projectId, task.id)}/cancel`)
      .set(as(bob))
      .expect(404);

    const own = await request(t.server)
      .get(tasksOf(projectId))
      .set(as(alice))
      .expect(200);
    expect(
      (own.body as { tasks: TaskBody[] }).tasks.map(
        (listedTask) => listedTask.id,
      ),
    ).toEqual([task.id]);
    expect(images.requests).toHaveLength(calls);
  });

  it('another user cannot cancel the owner’s running task', async () => {
    const { projectId } = await aliceTask();
    images.respondWith({ noAnswer: true });
    try {
      const queued = await request(t.server)
        .post(tasksOf(projectId))
        .set(as(alice))
        .send({ type: 'logo', input: LOGO_TASK_INPUT })
        .expect(202);
      const task = (queued.body as { task: TaskBody }).task;
      await request(t.server)
        .post(`${taskPath(projectId, task.id)}/cancel`)
        .set(as(bob))
        .expect(404);
      const read = await request(t.server)
        .get(taskPath(projectId, task.id))
        .set(as(alice))
        .expect(200);
      expect(['QUEUED', 'RUNNING']).toContain(
        (read.body as { task: TaskBody }).task.status,
      );
      await request(t.server)
        .post(`${taskPath(projectId, task.id)}/cancel`)
        .set(as(alice))
        .expect(200);
    } finally {
      images.reset();
    }
  });

  it('another user gets 404 from the selection routes, and the owner’s choice stays', async () => {
    const { projectId, logoSectionId, task } = await aliceTask();
    const selection = `/api/projects/${projectId}/sections/${logoSectionId}/selection`;
    await request(t.server)
      .put(selection)
      .set(as(bob))
      .send({ assetId: task.assetIds[0] })
      .expect(404);
    await request(t.server)
      .put(selection)
      .set(as(alice))
      .send({ assetId: task.assetIds[0] })
      .expect(200);
    await request(t.server).delete(selection).set(as(bob)).expect(404);
    const project = await request(t.server)
      .get(`/api/projects/${projectId}`)
      .set(as(alice))
      .expect(200);
    const logo = (
      project.body as {
        project: {
          sections: Array<{
            id: string;
            status: string;
            selectedAssetId: string | null;
          }>;
        };
      }
    ).project.sections.find((s) => s.id === logoSectionId)!;
    expect(logo).toMatchObject({
      status: 'DONE',
      selectedAssetId: task.assetIds[0],
    });
  });
});
