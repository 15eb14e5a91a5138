import request from 'supertest';
import { WarmUp } from '../../../../src/start/warm-up';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * The start-up warm-up (src/start/warm-up.ts) as main.ts drives it, on an
 * app built from AppModule: readiness waits for it, and its requests leave
 * no row and no metric behind.
 */
describe('Warm-up before readiness', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = await t.app.getUrl();
  });
  afterAll(() => t.close());

  it('is ready at once when no warm-up was asked for (an app built in a test)', async () => {
    await request(baseUrl).get('/health/ready').expect(200);
  });

  it('answers 503 "warming up" until the warm-up has run, then 200; the warm-up leaves no row or metric', async () => {
    const created = await request(baseUrl)
      .post('/api/projects')
      .send({ name: 'Warm', userId: 'warm-up-owner' })
      .expect(201);
    const before = (await request(baseUrl).get('/metrics').expect(200)).text;

    const warmUp = t.app.get(WarmUp);
    warmUp.expect();
    const waiting = await request(baseUrl).get('/health/ready').expect(503);
    expect(waiting.body).toMatchObject({
      status: 'error',
      error: {
        warmUp: { status: 'down', message: 'The service is warming up' },
      },
    });

    const summary = await warmUp.run(baseUrl);
    // It read the project (200s) and the missing id (404s).
    expect(summary.statuses[200]).toBeGreaterThan(10);
    expect(summary.statuses[404]).toBeGreaterThan(0);
    await request(baseUrl).get('/health/ready').expect(200);

    const rows = await t.dataSource.query<{ n: number | string }[]>(
      'SELECT COUNT(*) AS n FROM projects',
    );
    expect(Number(rows[0].n)).toBe(1);
    const list = await request(baseUrl)
      .get('/api/projects?limit=10')
      .expect(200);
    expect(list.body.projects.map((p: { id: string }) => p.id)).toEqual([
      created.body.project.id,
    ]);
    // The only new observations are this test's own requests.
    const after = (await request(baseUrl).get('/metrics').expect(200)).text;
    const byIdCount = (text: string) =>
      /http_request_duration_seconds_count\{method="GET",route="\/api\/projects\/:id",status_code="200"\} (\d+)/.exec(
        text,
      )?.[1] ?? '0';
    expect(byIdCount(after)).toBe(byIdCount(before));
    expect(after).not.toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/projects\/:id",status_code="404"\}/,
    );
  });

  it('ends the wait even when the server cannot be reached (a failed warm-up costs speed, not readiness)', async () => {
    const warmUp = t.app.get(WarmUp);
    warmUp.expect();
    await request(baseUrl).get('/health/ready').expect(503);
    const summary = await warmUp.run('http://127.0.0.1:9');
    expect(summary.requests).toBe(0);
    await request(baseUrl).get('/health/ready').expect(200);
  });
});
