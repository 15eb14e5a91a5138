import request from 'supertest';
import { FakeImageApi, Replies } from '../../../support/fake-image-api';
import { LOGO_TASK_INPUT, tasksOf } from '../../../support/task-client';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * The task line is fair between users: one user's backlog never holds
 * another user's first task past the first worker to come free, and the
 * per-user cap holds however many creates race on different projects.
 * Runs on SQLite (embedded engine) and PostgreSQL (pg-boss).
 */
describe('Task line shared between users', () => {
  async function projectOf(t: TestApp, userId: string): Promise<string> {
    const created = await request(t.server)
      .post('/api/projects')
      .send({ name: `Site of ${userId}`, userId })
      .expect(201);
    return (created.body as { project: { id: string } }).project.id;
  }

  const logoOf = (companyName: string) => ({
    type: 'logo',
    input: { ...LOGO_TASK_INPUT, companyName },
  });

  describe('one worker, two users', () => {
    let images: FakeImageApi;
    let t: TestApp;

    beforeAll(async () => {
      images = await FakeImageApi.start();
      t = await createTestApp({
        IMAGE_API_KEY: 'sk-test',
        IMAGE_API_URL: images.url,
        TASK_CONCURRENCY: '1',
        TASK_MAX_QUEUED_PER_PROJECT: '25',
      });
    });
    afterAll(async () => {
      await t?.close();
      await images?.close();
    });

    it("takes another user's first task before the rest of one user's 20 queued tasks", async () => {
      const heavy = await projectOf(t, 'heavy-user');
      const light = await projectOf(t, 'light-user');
      // The first call is held while both backlogs are queued behind it.
      images.respondNext({ ...Replies.success(), latencyMs: 3000 });
      images.respondWith(Replies.success());
      const queued = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          request(t.server)
            .post(tasksOf(heavy))
            .send(logoOf(`Heavy ${i}`)),
        ),
      );
      expect(queued.map((answer) => answer.status)).toEqual(
        Array(20).fill(202),
      );
      await request(t.server)
        .post(tasksOf(light))
        .send(logoOf('Light'))
        .expect(202);
      // Still one call at most: the light task was queued behind them all.
      expect(images.requests.length).toBeLessThanOrEqual(1);

      await images.waitUntil(() => images.requests.length >= 3, 30_000);
      const companies = images.requests.map(
        (call) => (call.body as { prompt: string }).prompt,
      );
      // Which upstream calls the server started, in order: the light
      // user's task is the one the first free worker took.
      expect(companies[0]).toMatch(/Heavy \d+/);
      expect(companies[1]).toContain('Light');
    });
  });

  describe('the per-user cap under concurrent creates', () => {
    let t: TestApp;

    beforeAll(async () => {
      // No worker: every accepted task stays queued and counts.
      t = await createTestApp({
        PROCESS_ROLE: 'api',
        IMAGE_API_KEY: 'sk-test',
        TASK_MAX_QUEUED_PER_USER: '25',
        TASK_MAX_QUEUED_PER_PROJECT: '40',
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('accepts exactly 25 of 40 concurrent creates across one user’s projects at a cap of 25', async () => {
      const projects: string[] = [];
      for (let i = 0; i < 8; i++) projects.push(await projectOf(t, 'racer'));
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          request(t.server)
            .post(tasksOf(projects[i % projects.length]))
            .send(logoOf(`Race ${i}`)),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 202)).toHaveLength(25);
      expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    });
  });
});
