import { DevTextApi } from '../../../../dev-servers/text-api';
import {
  startDevImageApiProcess,
  type DevImageApiProcess,
} from '../../../support/dev-image-api-process';
import {
  startServer,
  type ServerProcess,
} from '../../../support/server-process';
import {
  createTestDatabase,
  TEST_DATABASE,
  type TestDatabase,
} from '../../../support/test-database';

const SECRET = 'sk-runs-crash-5d81c0a7e2';
/** The least the service allows: a killed worker's task is taken again after it. */
const LEASE_S = 10;
const JSON_HEADERS = { 'content-type': 'application/json' };
const STEPS = [
  'logo',
  'marketing-copy',
  'icon-set',
  'wireframe',
  'landing-page',
];

interface RunBody {
  id: string;
  status: string;
  steps: Array<{ type: string; taskId: string | null; status: string }>;
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A run survives a SIGKILL of the process running its tasks: on SQLite
 * the one process (API and worker) is killed while the logo step runs and
 * another is started on the same database; on PostgreSQL an API process
 * and a separate worker process (PROCESS_ROLE=worker), and only the worker
 * is killed and replaced. The killed attempt's task is taken again once
 * its lease runs out, the run's advance (lost with the process, or never
 * heard by the API) is made by the sweep, and the run ends SUCCEEDED with
 * every step's task SUCCEEDED and queued once.
 */
describe(`A run across a killed worker on ${TEST_DATABASE}`, () => {
  let database: TestDatabase;
  let imageApi: DevImageApiProcess;
  let textApi: DevTextApi;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    imageApi = await startDevImageApiProcess();
    textApi = await DevTextApi.start({
      defaultReply: { kind: 'answer', latencyMs: 300 },
    });
    // Every logo takes long enough for the kill to land while it runs.
    const answer = await fetch(new URL('/_dev/reply', imageApi.url), {
      method: 'PUT',
      headers: JSON_HEADERS,
      body: JSON.stringify({ reply: 'image', latencyMs: 3000 }),
    });
    expect(answer.status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await imageApi?.stop();
    await textApi?.close();
    await database?.drop();
  });

  const start = async (role: 'all' | 'api' | 'worker') => {
    const server = await startServer({
      DATABASE_URL: database.url,
      DATABASE_CONNECT_TIMEOUT_MS: '30000',
      PROCESS_ROLE: role,
      IMAGE_API_KEY: SECRET,
      IMAGE_API_URL: imageApi.url,
      TEXT_API_URL: textApi.url,
      TEXT_API_KEY: SECRET,
      LOGO_RATE_LIMIT: '0',
      TASK_LEASE_S: String(LEASE_S),
      TASK_MAX_ATTEMPTS: '3',
      RUNS_SWEEP_MS: '500',
      LOG_LEVEL: 'warn',
    });
    servers.push(server);
    return server;
  };

  const api = async (
    base: string,
    method: string,
    path: string,
    body?: unknown,
  ) => {
    const answer = await fetch(`${base}${path}`, {
      method,
      headers: JSON_HEADERS,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: answer.status,
      body: (await answer.json()) as Record<string, unknown>,
    };
  };

  const readRun = async (base: string, projectId: string, runId: string) =>
    (await api(base, 'GET', `/api/projects/${projectId}/runs/${runId}`)).body
      .run as RunBody;

  const waitFor = async (
    base: string,
    projectId: string,
    runId: string,
    done: (run: RunBody) => boolean,
    deadlineMs: number,
  ) => {
    const until = Date.now() + deadlineMs;
    let run = await readRun(base, projectId, runId);
    while (!done(run) && Date.now() < until) {
      await sleep(200);
      run = await readRun(base, projectId, runId);
    }
    if (!done(run)) throw new Error(`Still not there: ${JSON.stringify(run)}`);
    return run;
  };

  it('ends SUCCEEDED, every step done by one task', async () => {
    const split = TEST_DATABASE === 'postgres';
    const front = await start(split ? 'api' : 'all');
    const worker = split ? await start('worker') : front;
    const project = await api(front.baseUrl, 'POST', '/api/projects', {
      name: 'Crash Harbor',
      userId: 'user-1',
    });
    expect(project.status).toBe(201);
    const projectId = (project.body.project as { id: string }).id;
    const created = await api(
      front.baseUrl,
      'POST',
      `/api/projects/${projectId}/runs`,
      {
        autoChoose: true,
        steps: STEPS,
        input: { 'icon-set': { names: ['house', 'search'] } },
      },
    );
    expect(created.status).toBe(202);
    const runId = (created.body.run as RunBody).id;

    await waitFor(
      front.baseUrl,
      projectId,
      runId,
      (run) => run.steps[0].status === 'RUNNING',
      30_000,
    );
    await worker.kill();
    const replacement = await start(split ? 'worker' : 'all');
    const base = split ? front.baseUrl : replacement.baseUrl;

    const done = await waitFor(
      base,
      projectId,
      runId,
      (run) => ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(run.status),
      (LEASE_S + 60) * 1000,
    );
    expect(done.status).toBe('SUCCEEDED');
    expect(done.steps.map((step) => step.status)).toEqual(
      STEPS.map(() => 'SUCCEEDED'),
    );
    const tasks = (
      await api(base, 'GET', `/api/projects/${projectId}/tasks?limit=50`)
    ).body.tasks as Array<{
      id: string;
      type: string;
      status: string;
      attempts: number;
    }>;
    // One task per step: the advance that queued each was made once.
    expect(tasks.map((task) => task.type).sort()).toEqual([...STEPS].sort());
    expect(tasks.every((task) => task.status === 'SUCCEEDED')).toBe(true);
    const logo = tasks.find((task) => task.type === 'logo')!;
    expect(logo.attempts).toBe(2);
  }, 180_000);
});
