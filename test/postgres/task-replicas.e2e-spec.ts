import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startDevImageApiProcess,
  type DevImageApiProcess,
} from '../support/dev-image-api-process';
import { HttpClient } from '../support/http-client';
import { startServer, type ServerProcess } from '../support/server-process';
import { readStoredAssets } from '../support/stored-assets';
import { readStoredTasks, unfinished } from '../support/stored-tasks';
import {
  createPostgresDatabase,
  type TestDatabase,
} from '../support/test-database';

const TASKS = 50;
const SETTLE_MS = 60_000;
const JSON_HEADERS = { 'content-type': 'application/json' };

const sleep = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The logo attempts a process says (GET /metrics) it ran to success. */
async function succeededAttempts(replica: ServerProcess): Promise<number> {
  const text = await (await fetch(`${replica.baseUrl}/metrics`)).text();
  const line = text
    .split('\n')
    .find(
      (row) =>
        row.startsWith('task_attempts_total{') &&
        row.includes('type="logo"') &&
        row.includes('outcome="succeeded"'),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

/**
 * One PostgreSQL database, one API process (PROCESS_ROLE=api) and two
 * worker processes (PROCESS_ROLE=worker) taking tasks from it at once,
 * plus a full process (PROCESS_ROLE=all) that both serves and runs: every
 * task is run exactly once, whichever process took it.
 */
describe('PostgreSQL: tasks across replicas run exactly once', () => {
  let database: TestDatabase;
  let imageApi: DevImageApiProcess;
  let api: ServerProcess;
  let full: ServerProcess;
  const workers: ServerProcess[] = [];
  const cwd = mkdtempSync(join(tmpdir(), 'workspace-task-replicas-'));

  beforeAll(async () => {
    database = await createPostgresDatabase();
    imageApi = await startDevImageApiProcess({ IMAGE_DEV_LATENCY_MS: '200' });
    const env = (role: string) => ({
      PROCESS_ROLE: role,
      DATABASE_URL: database.url,
      DATABASE_CONNECT_TIMEOUT_MS: '30000',
      IMAGE_API_KEY: 'sk-task-replicas',
      IMAGE_API_URL: imageApi.url,
      IMAGE_API_CONCURRENCY: '32',
      IMAGE_API_CLIENT_LIMIT: '64',
      LOGO_RATE_LIMIT: '0',
      ASSET_MAX_PER_PROJECT: '1000',
      TASK_MAX_QUEUED_PER_PROJECT: '1000',
      TASK_MAX_QUEUED_PER_USER: '1000',
      TASK_CONCURRENCY: '4',
    });
    // The API first: it migrates, as the first of a rolling update would.
    api = await startServer(env('api'), { cwd });
    full = await startServer(env('all'), { cwd });
    workers.push(
      await startServer(env('worker'), { cwd }),
      await startServer(env('worker'), { cwd }),
    );
  }, 90_000);

  afterAll(async () => {
    await Promise.all([api, full, ...workers].map((p) => p?.stop()));
    await imageApi?.stop();
    await database?.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('a worker process answers 404 to the API and 200 to its health routes', async () => {
    const client = new HttpClient(workers[0].baseUrl);
    try {
      const projects = await client.send({
        method: 'GET',
        path: '/api/projects?userId=replica',
      });
      expect(projects.status).toBe(404);
      for (const path of ['/health/live', '/health/ready']) {
        const health = await client.send({ method: 'GET', path });
        expect({ path, status: health.status }).toEqual({ path, status: 200 });
      }
    } finally {
      client.close();
    }
  });

  it(`runs each of ${TASKS} logo tasks created through two replicas exactly once`, async () => {
    const reset = await fetch(new URL('/_dev/reset', imageApi.url), {
      method: 'POST',
    });
    expect(reset.status).toBe(200);
    const clients = [api, full].map(
      (replica) => new HttpClient(replica.baseUrl, 4),
    );
    try {
      const projectIds: string[] = [];
      for (const [index, client] of clients.entries()) {
        const answer = await client.send({
          method: 'POST',
          path: '/api/projects',
          headers: JSON_HEADERS,
          body: JSON.stringify({
            name: `replica-${index}`,
            userId: `replica-${index}`,
          }),
        });
        expect(answer.status).toBe(201);
        projectIds.push(
          (JSON.parse(answer.text) as { project: { id: string } }).project.id,
        );
      }
      // Half through each replica, each into a project made by the other.
      const answers = await Promise.all(
        Array.from({ length: TASKS }, (_, index) =>
          clients[index % 2].send({
            method: 'POST',
            path: `/api/projects/${projectIds[(index + 1) % 2]}/tasks`,
            headers: JSON_HEADERS,
            body: JSON.stringify({
              type: 'logo',
              input: {
                companyName: `Replica ${index}`,
                style: 'minimalist',
                colors: ['#111827'],
                count: 1,
              },
            }),
          }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(
        Array.from({ length: TASKS }, () => 202),
      );
      const ids = answers.map(
        (answer) =>
          (JSON.parse(answer.text) as { task: { id: string } }).task.id,
      );

      const deadline = Date.now() + SETTLE_MS;
      let state = await readStoredTasks(database);
      while (unfinished(state.tasks).length > 0 && Date.now() < deadline) {
        await sleep(200);
        state = await readStoredTasks(database);
      }

      expect(state.tasks.map((task) => task.id).sort()).toEqual(ids.sort());
      const outcomes = state.tasks.map((task) => ({
        status: task.status,
        attempts: task.attempts,
        assets: task.assetIds.length,
      }));
      expect(outcomes).toEqual(
        Array.from({ length: TASKS }, () => ({
          status: 'SUCCEEDED',
          attempts: 1,
          assets: 1,
        })),
      );
      const stored = await readStoredAssets(database);
      expect(stored.assets).toHaveLength(TASKS);
      expect(
        stored.assets.filter((asset) => (asset.content?.length ?? 0) > 0),
      ).toHaveLength(TASKS);

      const calls = (await (
        await fetch(new URL('/_dev/requests', imageApi.url))
      ).json()) as { requests: Array<{ method: string; path: string }> };
      const generations = calls.requests.filter(
        (call) => call.method === 'POST' && call.path.includes('/generations'),
      );
      expect(generations).toHaveLength(TASKS);
      // The work was shared: more than one process ran attempts.
      const ranBy = await Promise.all(
        [full, ...workers].map((replica) => succeededAttempts(replica)),
      );
      expect(ranBy.reduce((sum, n) => sum + n, 0)).toBe(TASKS);
      expect(ranBy.filter((n) => n > 0).length).toBeGreaterThan(1);
      expect(state.agents.WORKING ?? 0).toBe(0);
      expect(state.sections.IN_PROGRESS ?? 0).toBe(0);
    } finally {
      clients.forEach((client) => client.close());
    }
  }, 120_000);
});
