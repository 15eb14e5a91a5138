import request from 'supertest';
import { DevTextApi } from '../../../../dev-servers/text-api';
import { DevImageApi, Replies } from '../../../support/fake-image-api';
import { documentSchemas } from '../../../support/event-schemas';
import { EventStreamClient } from '../../../support/event-stream-client';
import { loadOpenApiDocument } from '../../../support/openapi-responses';
import { listen, until } from '../../../support/pending-request';
import { createProject } from '../../../support/project-fixtures';
import {
  cancelRun,
  postRun,
  readRun,
  runsOf,
  startRun,
  waitForRun,
  type RunBody,
} from '../../../support/run-client';
import { readProject, readTask, sectionOf } from '../../../support/task-client';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Runs end to end through the HTTP API, the models being the dev image and
 * text APIs: a run that chooses its own results goes through every step
 * there is a task type for; one that does not waits at the logo for a
 * person's choice and then goes on by itself; a cancel stops its tasks;
 * bad requests and the per-user limit are refused before anything is
 * stored. On SQLite and PostgreSQL.
 */

const validateSchema = documentSchemas(loadOpenApiDocument());

const SEVEN = [
  'logo',
  'marketing-copy',
  'icon-set',
  'brand-kit',
  'graphics',
  'wireframe',
  'landing-page',
];

describe('Runs', () => {
  let images: DevImageApi;
  let texts: DevTextApi;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    images = await DevImageApi.start();
    texts = await DevTextApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: images.url,
      TEXT_API_URL: texts.url,
      TEXT_API_KEY: 'sk-text',
      TASK_MAX_ATTEMPTS: '1',
      TASK_CANCEL_CHECK_MS: '100',
      RUNS_SWEEP_MS: '500',
    });
    base = await listen(t);
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

  const modelCalls = () => images.requests.length + texts.requests.length;

  it('an autoChoose run goes through the seven steps: every section DONE, every step a SUCCEEDED task, quoted before any model call, announced on the stream', async () => {
    const project = await createProject(t, { name: 'Harbor Lights' });
    const stream = await EventStreamClient.open(
      `${base}/api/projects/${project.id}/events`,
    );
    try {
      const response = await postRun(t, project.id, {
        autoChoose: true,
        steps: SEVEN,
        input: {
          logo: { count: 2 },
          'icon-set': { names: ['house', 'search'] },
        },
      }).expect(202);
      const calledAtAnswer = modelCalls();
      const run = (response.body as { run: RunBody }).run;
      expect(calledAtAnswer).toBe(0);
      expect(response.headers.location).toMatch(
        new RegExp(`/api/projects/${project.id}/runs/${run.id}$`),
      );
      expect(run).toMatchObject({
        status: 'QUEUED',
        autoChoose: true,
        quote: { imageCalls: 4, textCalls: 3, maxFixes: 0 },
      });
      expect(run.steps.map((step) => [step.type, step.status])).toEqual(
        SEVEN.map((type) => [type, 'PENDING']),
      );

      const done = await waitForRun(t, project.id, run.id);
      expect(done.status).toBe('SUCCEEDED');
      expect(done.error).toBeUndefined();
      for (const step of done.steps) {
        expect(step.status).toBe('SUCCEEDED');
        const task = await readTask(t, project.id, step.taskId!);
        expect(task).toMatchObject({ type: step.type, status: 'SUCCEEDED' });
      }
      const state = await readProject(t, project.id);
      for (const type of [
        'LOGO',
        'MARKETING',
        'ICONS',
        'GRAPHICS',
        'WIREFRAME',
        'CODE',
      ]) {
        expect(sectionOf(state, type).status).toBe('DONE');
      }
      // The logo chosen is the logo task's first result.
      const logoTask = await readTask(t, project.id, done.steps[0].taskId!);
      expect(sectionOf(state, 'LOGO').selectedAssetId).toBe(
        logoTask.assetIds[0],
      );
      await until(
        () =>
          stream
            .changes()
            .some(
              (event) =>
                event.type === 'run.updated' &&
                event.data.status === 'SUCCEEDED',
            ),
        'the run.updated event of its success',
      );
      const runEvents = stream
        .changes()
        .filter((event) => event.type === 'run.updated');
      expect(runEvents[0].data).toMatchObject({
        runId: run.id,
        status: 'QUEUED',
      });
      expect(runEvents.length).toBeGreaterThan(SEVEN.length);
      // Each as the document's schema of run.updated says.
      for (const event of runEvents) {
        expect(validateSchema('RunUpdatedEventDto', event)).toBeUndefined();
      }
      expect(runEvents.at(-1)!.data.run).toEqual(done);
    } finally {
      await stream.close();
    }
  });

  it('without autoChoose, waits at the logo until a person chooses one, then goes on by itself', async () => {
    const project = await createProject(t, { name: 'Quiet Fox' });
    const run = await startRun(t, project.id, {
      steps: ['logo', 'icon-set'],
      input: { logo: { count: 2 }, 'icon-set': { names: ['house'] } },
    });
    const waiting = await waitForRun(
      t,
      project.id,
      run.id,
      (r) => r.status === 'WAITING',
    );
    expect(waiting.steps.map((step) => step.status)).toEqual([
      'WAITING',
      'PENDING',
    ]);
    const logoTask = await readTask(t, project.id, waiting.steps[0].taskId!);
    const logo = sectionOf(await readProject(t, project.id), 'LOGO');
    expect(logo.status).toBe('REVIEW');

    await request(t.server)
      .put(`/api/projects/${project.id}/sections/${logo.id}/selection`)
      .send({ assetId: logoTask.assetIds[1] })
      .expect(200);
    const done = await waitForRun(t, project.id, run.id);
    expect(done.status).toBe('SUCCEEDED');
    expect(done.steps.map((step) => step.status)).toEqual([
      'SUCCEEDED',
      'SUCCEEDED',
    ]);
    // The icon set's task followed the choice; nothing chose for the person.
    expect(
      sectionOf(await readProject(t, project.id), 'LOGO').selectedAssetId,
    ).toBe(logoTask.assetIds[1]);
  });

  it("a cancel cancels every running step's task, skips the steps not started, and is refused once finished", async () => {
    images.respondWith(Replies.noAnswer());
    const project = await createProject(t);
    const run = await startRun(t, project.id, {
      autoChoose: true,
      steps: ['logo', 'icon-set'],
      input: { 'icon-set': { names: ['house'] } },
    });
    const running = await waitForRun(
      t,
      project.id,
      run.id,
      (r) => r.steps[0].status === 'RUNNING',
    );
    const cancelled = await cancelRun(t, project.id, run.id).expect(200);
    expect((cancelled.body as { run: RunBody }).run).toMatchObject({
      status: 'CANCELLED',
      steps: [
        { type: 'logo', status: 'CANCELLED', taskId: running.steps[0].taskId },
        { type: 'icon-set', status: 'SKIPPED', taskId: null },
      ],
    });
    const task = await readTask(t, project.id, running.steps[0].taskId!);
    expect(task.status).toBe('CANCELLED');
    const again = await cancelRun(t, project.id, run.id).expect(409);
    expect(again.body).toMatchObject({ code: 'run_finished' });
    expect((await readRun(t, project.id, run.id)).status).toBe('CANCELLED');
  });

  it('refuses bad requests with the issue shape of POST …/tasks, storing nothing', async () => {
    const project = await createProject(t);
    const bad = async (body: unknown) =>
      (await postRun(t, project.id, body).expect(400)).body as {
        code: string;
        details: Array<{ path: Array<string | number> }>;
      };
    expect((await bad({ steps: [] })).details[0].path).toEqual(['steps']);
    expect((await bad({ steps: ['logo', 'logo'] })).details[0].path).toEqual([
      'steps',
    ]);
    expect((await bad({ steps: ['nothing'] })).details[0].path).toEqual([
      'steps',
    ]);
    expect((await bad({ autoChoose: 'yes' })).details[0].path).toEqual([
      'autoChoose',
    ]);
    const input = await bad({ steps: ['logo'], input: { logo: { count: 9 } } });
    expect(input.code).toBe('invalid_input');
    expect(input.details[0].path).toEqual(['input', 'logo', 'count']);
    expect(
      (await bad({ steps: ['icon-set'], input: { 'icon-set': { names: [] } } }))
        .details[0].path,
    ).toEqual(['input', 'icon-set', 'names']);
    expect(
      (await bad({ steps: ['logo'], input: { wireframe: {} } })).details[0]
        .path,
    ).toEqual(['input', 'wireframe']);
    const list = await request(t.server).get(runsOf(project.id)).expect(200);
    expect(list.body).toEqual({ runs: [], nextCursor: null });
    await postRun(t, '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20', {}).expect(404);
    await request(t.server)
      .get(`${runsOf(project.id)}/019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20`)
      .expect(404);
  });

  it("lists a project's runs newest first, paged as tasks are", async () => {
    const project = await createProject(t);
    const first = await startRun(t, project.id, { steps: ['marketing-copy'] });
    await waitForRun(t, project.id, first.id);
    const second = await startRun(t, project.id, { steps: ['marketing-copy'] });
    await waitForRun(t, project.id, second.id);
    const page = await request(t.server)
      .get(`${runsOf(project.id)}?limit=1`)
      .expect(200);
    const body = page.body as { runs: RunBody[]; nextCursor: string };
    expect(body.runs.map((r) => r.id)).toEqual([second.id]);
    const next = await request(t.server)
      .get(`${runsOf(project.id)}?limit=1&cursor=${body.nextCursor}`)
      .expect(200);
    expect((next.body as { runs: RunBody[] }).runs.map((r) => r.id)).toEqual([
      first.id,
    ]);
  });
});

describe('Runs per user', () => {
  let images: DevImageApi;
  let t: TestApp;

  beforeAll(async () => {
    images = await DevImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: images.url,
      RUNS_MAX_CONCURRENT_PER_USER: '1',
    });
  });
  afterAll(async () => {
    await t?.close();
    await images?.close();
  });

  it('answers 429 too_many_runs past RUNS_MAX_CONCURRENT_PER_USER unfinished runs of one owner', async () => {
    const project = await createProject(t, { userId: 'runner' });
    const other = await createProject(t, { userId: 'runner' });
    // Waiting for a choice of logo, the run stays unfinished.
    const body = { steps: ['logo', 'brand-kit'] };
    const run = await startRun(t, project.id, body);
    await waitForRun(t, project.id, run.id, (r) => r.status === 'WAITING');
    const refused = await postRun(t, other.id, body).expect(429);
    expect(refused.body).toMatchObject({ code: 'too_many_runs' });
    expect(refused.headers['retry-after']).toBeDefined();
    await cancelRun(t, project.id, run.id).expect(200);
    await startRun(t, other.id, body);
  });
});
