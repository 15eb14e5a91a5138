import request from 'supertest';
import { DevTextApi } from '../../../../dev-servers/text-api';
import { DevImageApi, Replies } from '../../../support/fake-image-api';
import { createProject } from '../../../support/project-fixtures';
import { startTask, waitForTask } from '../../../support/task-client';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Spend budgets (docs/operations.md, "Spend budgets"): every paid model
 * call reserves its estimated cost in the usage ledger before anything is
 * sent, settles it after, and gives it back when the call fails. The
 * default image model (dall-e-3, 1024x1024) costs 0.04 USD an image in the
 * price table. Runs on SQLite (jest-e2e.json) and PostgreSQL
 * (jest-e2e-postgres.json).
 */

const PATH = '/api/ai/generate-logo';
const ONE_IMAGE_USD = 0.04;
const LOGO = {
  projectId: 'any',
  companyName: 'Acme Rockets',
  style: 'modern',
  colors: ['#0044ff'],
};

interface LedgerRow {
  userKey: string;
  projectId: string | null;
  taskId: string | null;
  kind: string;
  model: string;
  state: string;
  images: number;
  inputTokens: number;
  outputTokens: number;
  costMicros: number | string;
}

describe('spend budgets: the usage ledger, reserved before a paid call', () => {
  let api: DevImageApi;
  let texts: DevTextApi;
  const apps: TestApp[] = [];

  const appWith = async (env: Record<string, string>) => {
    const app = await createTestApp({
      IMAGE_API_KEY: 'sk-spend-test',
      IMAGE_API_URL: api.url,
      IMAGE_API_CLIENT_LIMIT: '1000',
      TEXT_API_URL: texts.url,
      TEXT_API_KEY: 'sk-spend-text',
      ...env,
    });
    apps.push(app);
    return app;
  };

  const ledger = (t: TestApp) =>
    t.dataSource.query<LedgerRow[]>(
      'SELECT "userKey", "projectId", "taskId", "kind", "model", "state", "images", "inputTokens", "outputTokens", "costMicros" FROM "usage_ledger" ORDER BY "id"',
    );

  /** Seconds from now to the next 00:00 UTC. */
  const secondsToMidnight = () => {
    const now = new Date();
    const midnight = Date.UTC(
      now.getUTCFullYear(),
      now.getUTCMonth(),
      now.getUTCDate() + 1,
    );
    return (midnight - now.getTime()) / 1000;
  };

  beforeAll(async () => {
    api = await DevImageApi.start();
    texts = await DevTextApi.start();
  });
  beforeEach(() => {
    api.reset();
    texts.requests.length = 0;
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await api?.close();
    await texts?.close();
  });

  it('answers 429 with code budget_exceeded and Retry-After until the UTC day turns, and sends nothing upstream, when the daily budget is below one image', async () => {
    const t = await appWith({ SPEND_LIMIT_USD_PER_USER_DAY: '0.03' });
    const response = await request(t.server).post(PATH).send(LOGO);
    expect(response.status).toBe(429);
    expect(response.body).toMatchObject({
      success: false,
      code: 'budget_exceeded',
    });
    const retryAfter = Number(response.headers['retry-after']);
    expect(Math.abs(retryAfter - secondsToMidnight())).toBeLessThan(10);
    expect(api.requests).toHaveLength(0);
    expect(await ledger(t)).toEqual([]);
    const metrics = (await request(t.server).get('/metrics').expect(200)).text;
    expect(metrics).toContain(
      'usage_budget_refusals_total{budget="user_day"} 1',
    );
  });

  it('lets exactly the affordable number through when 10 paid calls race at the budget of 3 images', async () => {
    const t = await appWith({
      SPEND_LIMIT_USD_PER_USER_DAY: String(3 * ONE_IMAGE_USD),
    });
    // Slow answers: every reservation is taken while others are in flight.
    api.respondWith(Replies.slow(Replies.image(), 300));
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => request(t.server).post(PATH).send(LOGO)),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(3).fill(200), ...Array(7).fill(429)]);
    expect(api.requests).toHaveLength(3);
    const rows = await ledger(t);
    expect(rows.map((row) => row.state)).toEqual(Array(3).fill('settled'));
  });

  it('gives a failed call its reservation back: the next call within the budget passes', async () => {
    const t = await appWith({
      SPEND_LIMIT_USD_PER_USER_DAY: String(ONE_IMAGE_USD),
    });
    api.respondWith(Replies.error(400, 'Your request was rejected'));
    const failed = await request(t.server).post(PATH).send(LOGO);
    expect(failed.status).not.toBe(200);
    expect(failed.status).not.toBe(429);
    api.respondWith(Replies.image());
    await request(t.server).post(PATH).send(LOGO).expect(200);
    const over = await request(t.server).post(PATH).send(LOGO);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('budget_exceeded');
    expect(api.requests).toHaveLength(2);
    expect((await ledger(t)).map((row) => row.state)).toEqual([
      'released',
      'settled',
    ]);
  });

  it('records user, project, task, model, units and cost of a task’s images, and fails a task over the project budget with budget_exceeded without calling upstream', async () => {
    const t = await appWith({
      SPEND_LIMIT_USD_PER_PROJECT: String(2 * ONE_IMAGE_USD),
    });
    const project = await createProject(t);
    const first = await startTask(t, project.id, {
      type: 'logo',
      input: { ...LOGO, count: 2 },
    });
    const done = await waitForTask(t, project.id, first.id);
    expect(done.error).toBeNull();
    expect(done.status).toBe('SUCCEEDED');
    const rows = await ledger(t);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({
        projectId: project.id,
        taskId: first.id,
        kind: 'image',
        model: 'dall-e-3',
        state: 'settled',
        images: 1,
      });
      expect(row.userKey).toMatch(/^user:/);
      expect(Number(row.costMicros)).toBe(ONE_IMAGE_USD * 1_000_000);
    }
    const second = await startTask(t, project.id, {
      type: 'logo',
      input: { ...LOGO, count: 1 },
    });
    const refused = await waitForTask(t, project.id, second.id);
    expect(refused).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      error: { code: 'budget_exceeded' },
    });
    expect(api.requests).toHaveLength(2);
  });

  it("GET /api/usage reports the caller's spend today and this month, by project, with the budgets", async () => {
    const t = await appWith({
      SPEND_LIMIT_USD_PER_USER_DAY: '5',
      SPEND_LIMIT_USD_PER_PROJECT: '20',
    });
    await request(t.server).post(PATH).send(LOGO).expect(200);
    await request(t.server).post(PATH).send(LOGO).expect(200);
    const today = new Date().toISOString().slice(0, 10);
    const usage = await request(t.server).get('/api/usage').expect(200);
    expect(usage.body).toEqual({
      day: today,
      month: today.slice(0, 7),
      todayUsd: 2 * ONE_IMAGE_USD,
      monthUsd: 2 * ONE_IMAGE_USD,
      budgets: { perUserDayUsd: 5, perProjectUsd: 20 },
      projects: [
        {
          projectId: null,
          todayUsd: 2 * ONE_IMAGE_USD,
          monthUsd: 2 * ONE_IMAGE_USD,
        },
      ],
    });
  });

  it('answers the logo route exactly as before when no budget is set, and still keeps the ledger', async () => {
    const t = await appWith({});
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => request(t.server).post(PATH).send(LOGO)),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(4).fill(200));
    expect(api.requests).toHaveLength(4);
    expect(await ledger(t)).toHaveLength(4);
  });

  it('records a text task’s tokens and their cost, and fails a text task whose estimate is over the daily budget without calling the text model', async () => {
    const t = await appWith({});
    const project = await createProject(t);
    const task = await startTask(t, project.id, {
      type: 'marketing-copy',
      input: {},
    });
    expect((await waitForTask(t, project.id, task.id)).status).toBe(
      'SUCCEEDED',
    );
    const [row] = await ledger(t);
    expect(row).toMatchObject({
      projectId: project.id,
      taskId: task.id,
      kind: 'text',
      state: 'settled',
      images: 0,
    });
    expect(Number(row.inputTokens)).toBeGreaterThan(0);
    expect(Number(row.outputTokens)).toBeGreaterThan(0);
    expect(Number(row.costMicros)).toBeGreaterThan(0);
    expect(texts.requests).toHaveLength(1);

    // 2,000 answer tokens at the unlisted text model's 20 USD a million:
    // 0.04 USD, over a budget of one cent.
    const poor = await appWith({ SPEND_LIMIT_USD_PER_USER_DAY: '0.01' });
    const other = await createProject(poor);
    const refused = await startTask(poor, other.id, {
      type: 'marketing-copy',
      input: {},
    });
    expect(await waitForTask(poor, other.id, refused.id)).toMatchObject({
      status: 'FAILED',
      error: { code: 'budget_exceeded' },
    });
    expect(texts.requests).toHaveLength(1);
  });
});
