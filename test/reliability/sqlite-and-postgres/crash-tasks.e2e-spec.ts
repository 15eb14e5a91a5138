import { DevTextApi } from '../../../dev-servers/text-api';
import {
  startDevImageApiProcess,
  type DevImageApiProcess,
} from '../../support/dev-image-api-process';
import { HttpClient } from '../../support/http-client';
import {
  recordReliability,
  reliabilitySeed,
  seededRandom,
} from '../../support/reliability';
import { startServer, type ServerProcess } from '../../support/server-process';
import { readStoredAssets } from '../../support/stored-assets';
import {
  readStoredTasks,
  unfinished,
  type StoredTask,
} from '../../support/stored-tasks';
import {
  createTestDatabase,
  TEST_DATABASE,
  type TestDatabase,
} from '../../support/test-database';

const SECRET = 'sk-reliability-crash-tasks-7c21e90d4b';
/** CI runs every one of them: each kill lands while a task is RUNNING. */
const KILLS = 20;
const CLIENTS = 3;
/** The least the service allows: a killed worker's task is taken again after it. */
const LEASE_S = 10;
const MAX_ATTEMPTS = 3;
/** The last restart's drain: the newest lease runs out, then the backlog runs. */
const DRAIN_MS = (LEASE_S + 50) * 1000;
const JSON_HEADERS = { 'content-type': 'application/json' };
/** Lucide's: an icon set of them calls no model. */
const ICON_NAMES = ['search', 'house'];

const sleep = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A logo task the service acknowledged with 202. */
interface Acknowledged {
  id: string;
  projectId: string;
  count: number;
}

/**
 * The real server process running logo tasks against the dev image API
 * (each call 300–800 ms), wireframe tasks against the
 * dev text API (400 ms), SIGKILLed while tasks are RUNNING and restarted
 * at once on the same database, KILLS times. Once the last restart has
 * drained the queue: no acknowledged task is lost, every task finished
 * (SUCCEEDED with its assets, or FAILED because its last attempt's worker
 * died, keeping the results made before), every asset is a task's, with
 * its bytes, and no section or agent is left as a dead attempt had it.
 */
describe(`Task crash safety on ${TEST_DATABASE} (reliability)`, () => {
  let database: TestDatabase;
  let imageApi: DevImageApiProcess;
  let textApi: DevTextApi;
  let server: ServerProcess | undefined;
  const seed = reliabilitySeed('crash-tasks');
  const random = seededRandom(seed);

  beforeAll(async () => {
    database = await createTestDatabase();
    imageApi = await startDevImageApiProcess();
    textApi = await DevTextApi.start({
      defaultReply: { kind: 'answer', latencyMs: 400 },
    });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await imageApi?.stop();
    await textApi?.close();
    await database?.drop();
  });

  const start = () =>
    startServer({
      DATABASE_URL: database.url,
      DATABASE_CONNECT_TIMEOUT_MS: '30000',
      IMAGE_API_KEY: SECRET,
      IMAGE_API_URL: imageApi.url,
      IMAGE_API_CONCURRENCY: '32',
      // Every task's calls count as its user's and as one address's ('task'):
      // the default share (4) would refuse a client's overlapping tasks.
      IMAGE_API_CLIENT_LIMIT: '64',
      TEXT_API_URL: textApi.url,
      TEXT_API_KEY: SECRET,
      TEXT_API_CONCURRENCY: '32',
      TEXT_API_CLIENT_CONCURRENCY: '32',
      LOGO_RATE_LIMIT: '0',
      ASSET_MAX_PER_PROJECT: '1000',
      TASK_LEASE_S: String(LEASE_S),
      TASK_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      TASK_CONCURRENCY: '8',
      TASK_MAX_QUEUED_PER_PROJECT: '10000',
      TASK_MAX_QUEUED_PER_USER: '10000',
      LOG_LEVEL: 'warn',
    });

  /** Every call from now on takes `latencyMs` (the admin endpoint). */
  async function setLatency(latencyMs: number): Promise<void> {
    const admin = new URL('/_dev/reply', imageApi.url);
    const answer = await fetch(admin, {
      method: 'PUT',
      headers: JSON_HEADERS,
      body: JSON.stringify({ reply: 'image', latencyMs }),
    });
    expect(answer.status).toBe(200);
  }

  /**
   * One client: tasks into its project, a few a second, until stopped:
   * mostly logo tasks, and wireframes, icon sets of Lucide names,
   * graphics sets and site checks of the project's page (no image-model
   * call, so they run briefly and a kill lands on some of them while they
   * render or check).
   */
  async function runClient(
    client: HttpClient,
    projectId: string,
    pageId: string,
    stopped: () => boolean,
    acknowledged: Acknowledged[],
    refused: string[],
  ): Promise<void> {
    while (!stopped()) {
      // About one task in seven each a wireframe, an icon set and a
      // graphics set, one in ten a site check; the rest logos.
      const pick = random();
      const wireframe = pick < 0.15;
      const icons = !wireframe && pick < 0.3;
      const graphics = !wireframe && !icons && pick < 0.45;
      const check = pick >= 0.45 && pick < 0.55;
      const count = wireframe || check ? 1 : 1 + Math.floor(random() * 2);
      try {
        const answer = await client.send({
          method: 'POST',
          path: `/api/projects/${projectId}/tasks`,
          headers: JSON_HEADERS,
          body: JSON.stringify(
            wireframe
              ? { type: 'wireframe', input: { pages: ['home', 'pricing'] } }
              : check
                ? { type: 'site-check', input: { assetId: pageId } }
                : icons
                  ? {
                      type: 'icon-set',
                      input: { names: ICON_NAMES.slice(0, count) },
                    }
                  : graphics
                    ? {
                        type: 'graphics',
                        input: { formats: ['og', 'story'].slice(0, count) },
                      }
                    : {
                        type: 'logo',
                        input: {
                          companyName: 'Crash Co',
                          style: 'modern',
                          colors: ['#1E40AF'],
                          count,
                        },
                      },
          ),
        });
        if (answer.status === 202) {
          const { task } = JSON.parse(answer.text) as { task: { id: string } };
          acknowledged.push({ id: task.id, projectId, count });
        } else {
          refused.push(`POST answered ${answer.status}: ${answer.text}`);
        }
      } catch {
        return; // Killed mid-request: stored or not, nobody was told.
      }
      await sleep(150 + random() * 250);
    }
  }

  /** A landing page of the project, written by a task run to its end. */
  async function keptLandingPage(
    client: HttpClient,
    projectId: string,
  ): Promise<string> {
    const created = await client.send({
      method: 'POST',
      path: `/api/projects/${projectId}/tasks`,
      headers: JSON_HEADERS,
      body: JSON.stringify({ type: 'landing-page' }),
    });
    expect(created.status).toBe(202);
    const { task } = JSON.parse(created.text) as { task: { id: string } };
    for (let poll = 0; poll < 200; poll++) {
      const answer = await client.send({
        method: 'GET',
        path: `/api/projects/${projectId}/tasks/${task.id}`,
      });
      const shown = (
        JSON.parse(answer.text) as {
          task: { status: string; assetIds: string[] };
        }
      ).task;
      if (shown.status === 'SUCCEEDED') return shown.assetIds[0];
      expect(['QUEUED', 'RUNNING']).toContain(shown.status);
      await sleep(100);
    }
    throw new Error(`The landing page of ${projectId} was not written`);
  }

  /** The attempts the database shows RUNNING, as `taskId:attempt`. */
  async function runningAttempts(): Promise<Set<string>> {
    const { tasks } = await readStoredTasks(database);
    return new Set(
      tasks
        .filter((task) => task.status === 'RUNNING')
        .map((task) => `${task.id}:${task.attempts}`),
    );
  }

  /**
   * Waits (bounded) until the database shows an attempt RUNNING that the
   * last kill did not leave behind: one this process took.
   */
  async function untilRunning(
    leftBefore: Set<string>,
    timeoutMs: number,
  ): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const now = await runningAttempts();
      if ([...now].some((attempt) => !leftBefore.has(attempt))) return true;
      await sleep(50);
    }
    return false;
  }

  it(`settles every acknowledged task through ${KILLS} SIGKILLs while tasks run`, async () => {
    const acknowledged: Acknowledged[] = [];
    const refused: string[] = [];
    const failures: string[] = [];
    let killsWhileRunning = 0;
    let leftBefore = new Set<string>();

    // The clients' projects, one user each.
    server = await start();
    const setup = new HttpClient(server.baseUrl);
    const projectIds: string[] = [];
    for (let index = 0; index < CLIENTS; index++) {
      const answer = await setup.send({
        method: 'POST',
        path: '/api/projects',
        headers: JSON_HEADERS,
        body: JSON.stringify({
          name: `crash-tasks-${index}`,
          userId: `crash-tasks-${index}`,
        }),
      });
      expect(answer.status).toBe(201);
      projectIds.push(
        (JSON.parse(answer.text) as { project: { id: string } }).project.id,
      );
    }
    // A landing page each, for the site checks among the clients' tasks.
    const pageIds: string[] = [];
    for (const projectId of projectIds) {
      pageIds.push(await keptLandingPage(setup, projectId));
    }
    setup.close();

    for (let kill = 0; kill < KILLS; kill++) {
      const latencyMs = 300 + Math.floor(random() * 501);
      await setLatency(latencyMs);
      server ??= await start();
      const clients = projectIds.map(() => new HttpClient(server!.baseUrl, 1));
      let stopped = false;
      const running = clients.map((client, index) =>
        runClient(
          client,
          projectIds[index],
          pageIds[index],
          () => stopped,
          acknowledged,
          refused,
        ),
      );
      // A random moment once a task is in a worker's hands: the wait stays
      // under half a model call, and the database is asked again just
      // before the kill, so a slow machine cannot let every running task
      // finish in between.
      await untilRunning(leftBefore, 10_000);
      await sleep((random() * latencyMs) / 2);
      const sawRunning = await untilRunning(leftBefore, 10_000);
      await server.kill();
      stopped = true;
      await Promise.all(running);
      clients.forEach((client) => client.close());
      const output = `${server.stdout}${server.stderr}`;
      if (output.includes(SECRET)) {
        failures.push(`kill ${kill + 1}: the key appeared in the output`);
      }
      server = undefined;
      // What the killed process left behind: an attempt it was running.
      const left = await runningAttempts();
      const itsOwn = [...left].filter((attempt) => !leftBefore.has(attempt));
      if (sawRunning && itsOwn.length > 0) killsWhileRunning++;
      else failures.push(`kill ${kill + 1} found no task of its own RUNNING`);
      leftBefore = left;
    }

    // The last restart: dead workers' leases run out, the queue drains.
    server = await start();
    const deadline = Date.now() + DRAIN_MS;
    let state = await readStoredTasks(database);
    while (unfinished(state.tasks).length > 0 && Date.now() < deadline) {
      await sleep(250);
      state = await readStoredTasks(database);
    }
    const stored = await readStoredAssets(database);

    failures.push(
      ...problemsOf(acknowledged, state.tasks, stored.assets),
      ...Object.entries(state.sections)
        .filter(([status]) => status === 'IN_PROGRESS')
        .map(([, n]) => `${n} sections still IN_PROGRESS`),
      ...Object.entries(state.agents)
        .filter(([status]) => status === 'WORKING')
        .map(([, n]) => `${n} agents still WORKING`),
      ...refused,
    );
    if (stored.integrity !== 'ok') {
      failures.push(`integrity_check: ${stored.integrity}`);
    }

    // The restarted service answers each task as it is stored.
    const client = new HttpClient(server.baseUrl);
    const byId = new Map(state.tasks.map((task) => [task.id, task]));
    for (const task of acknowledged.slice(-10)) {
      const answer = await client.send({
        method: 'GET',
        path: `/api/projects/${task.projectId}/tasks/${task.id}`,
      });
      const shown = (JSON.parse(answer.text) as { task?: { status: string } })
        .task;
      if (
        answer.status !== 200 ||
        shown?.status !== byId.get(task.id)?.status
      ) {
        failures.push(`GET task ${task.id} answered ${answer.status}`);
      }
    }
    client.close();

    const succeeded = state.tasks.filter((t) => t.status === 'SUCCEEDED');
    const lost = state.tasks.filter((t) => t.error?.code === 'worker_lost');
    recordReliability({
      driver: 'crash',
      item: `task kill points (${acknowledged.length} tasks acknowledged, ${succeeded.length} succeeded, ${lost.length} worker_lost)`,
      count: killsWhileRunning,
      failures: failures.length,
      seed,
    });
    expect(failures).toEqual([]);
    expect(killsWhileRunning).toBe(KILLS);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILLS);
    expect(succeeded.length).toBeGreaterThan(0);
  }, 240_000);
});

/**
 * Every way the stored tasks and assets break the rules: an acknowledged
 * task missing, a task not finished or finished otherwise than by success
 * or a lost last attempt, a success without exactly its assets, a task
 * naming an asset without a row or bytes, an asset no task names.
 */
function problemsOf(
  acknowledged: Acknowledged[],
  tasks: StoredTask[],
  assets: Array<{
    id: string;
    projectId: string;
    content: { length: number } | null;
  }>,
): string[] {
  const problems: string[] = [];
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const assetsById = new Map(assets.map((asset) => [asset.id, asset]));
  for (const { id, count } of acknowledged) {
    const task = byId.get(id);
    if (!task) problems.push(`acknowledged task ${id} was lost`);
    else if (resultsOf(task) !== count) {
      problems.push(`task ${id} asks for ${resultsOf(task)}, sent ${count}`);
    }
  }
  const named = new Set<string>();
  for (const task of tasks) {
    const where = `task ${task.id} (${task.status}, attempt ${task.attempts})`;
    if (task.attempts < 1 || task.attempts > MAX_ATTEMPTS) {
      problems.push(`${where}: attempts out of 1..${MAX_ATTEMPTS}`);
    }
    const count = resultsOf(task);
    // Results are kept as they are made: a task that failed keeps those it
    // made before, each a real asset of its project, never more than asked.
    for (const assetId of task.assetIds) {
      const asset = assetsById.get(assetId);
      named.add(assetId);
      if (!asset) problems.push(`${where}: asset ${assetId} has no row`);
      else if (!asset.content || asset.content.length === 0) {
        problems.push(`${where}: asset ${assetId} has no bytes`);
      } else if (asset.projectId !== task.projectId) {
        problems.push(`${where}: asset ${assetId} is another project's`);
      }
    }
    if (task.status === 'SUCCEEDED') {
      if (task.assetIds.length !== count) {
        problems.push(`${where}: ${task.assetIds.length} assets of ${count}`);
      }
    } else if (task.status === 'FAILED') {
      if (task.error?.code !== 'worker_lost') {
        problems.push(`${where}: failed with ${JSON.stringify(task.error)}`);
      }
      if (task.assetIds.length > count) {
        problems.push(`${where}: ${task.assetIds.length} assets of ${count}`);
      }
    } else {
      problems.push(`${where}: not finished`);
    }
  }
  for (const asset of assets) {
    if (!named.has(asset.id)) {
      problems.push(`asset ${asset.id} belongs to no task`);
    }
  }
  return problems;
}

/**
 * How many results a stored task asks for: a logo's count, an icon set's
 * names, a graphics set's formats (a wireframe keeps one).
 */
const resultsOf = (task: StoredTask): number =>
  task.input.names?.length ??
  task.input.formats?.length ??
  task.input.count ??
  1;
