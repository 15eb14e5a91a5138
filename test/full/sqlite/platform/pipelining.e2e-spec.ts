import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { POD_HEAP_FLAGS } from '../../../../bench/pod-heap';
import { ProjectsService } from '../../../../src/projects/projects.service';
import {
  LOOP_MONITOR_NODE_ARGS,
  loopWindowStats,
} from '../../../support/loop-monitor';
import {
  pipeline,
  rawGet,
  rawPost,
  readAnswers,
} from '../../../support/pipelined-client';
import {
  isRunning,
  megabytes,
  residentBytes,
} from '../../../support/process-memory';
import { createProject } from '../../../support/project-fixtures';
import {
  startServer,
  type ServerProcess,
} from '../../../support/server-process';
import { createTestApp, type TestApp } from '../../../support/test-app';
import {
  createTestDatabase,
  type TestDatabase,
} from '../../../support/test-database';

/**
 * A client that pipelines requests gets one handler at a time on its
 * connection: the next request runs only once the answer before it has
 * been written to the socket, and the socket is not read while requests
 * wait. Before, a client pipelining 2,000 GETs of a project with a 1 MB
 * description, and reading nothing, had every handler run and every answer
 * held in memory (+2 GB).
 */
const PIPELINED_GETS = 2_000;
const LARGE_DESCRIPTION = 'd'.repeat(1_000_000);
/**
 * Handlers that may run for a client that reads nothing: one per answer the
 * kernel's socket buffers take (a few MB on loopback), against 2,000.
 */
const HANDLER_RUNS_LIMIT = 32;
/** Answers the production-process test reads back, in order. */
const ANSWERS_READ = 40;
/** 2,000 answers of 1 MB would be 2 GB; one at a time is a few MB. */
const RSS_GROWTH_LIMIT = 64 * 1024 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until `read()` has not changed for a second (at most 20 s), failing
 * as soon as it passes `limit`: the server has then done everything the
 * pipelined requests make it do while their client reads nothing.
 */
async function settle(
  read: () => number,
  limit: number,
  describeValue: (value: number) => string = String,
  tolerance = 0,
): Promise<number> {
  let last = read();
  let stableSince = Date.now();
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && Date.now() - stableSince < 1_000) {
    await sleep(100);
    const value = read();
    if (value > limit) {
      throw new Error(
        `${describeValue(value)} is past the bound of ${describeValue(limit)}`,
      );
    }
    if (Math.abs(value - last) > tolerance) {
      last = value;
      stableSince = Date.now();
    }
  }
  return last;
}

async function projectWithLargeDescription(t: TestApp): Promise<string> {
  const { id } = await createProject(t);
  await request(t.server)
    .patch(`/api/projects/${id}`)
    .send({ description: LARGE_DESCRIPTION })
    .expect(200);
  return id;
}

describe('Pipelined requests (an app built from AppModule alone)', () => {
  let t: TestApp;
  let port: number;
  const sockets: Socket[] = [];

  /** Counts ProjectsService.get calls in progress; each still runs for real. */
  function countHandlers() {
    const service = t.app.get(ProjectsService);
    const original = service.get.bind(service);
    const figures = { running: 0, most: 0, calls: 0 };
    jest
      .spyOn(service, 'get')
      .mockImplementation(async (...args: Parameters<typeof original>) => {
        figures.calls++;
        figures.running++;
        figures.most = Math.max(figures.most, figures.running);
        try {
          return await original(...args);
        } finally {
          figures.running--;
        }
      });
    return figures;
  }

  beforeAll(async () => {
    t = await createTestApp();
    await new Promise<void>((resolve) =>
      t.server.listen(0, '127.0.0.1', resolve),
    );
    port = (t.server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    for (const socket of sockets.splice(0)) socket.destroy();
    await t.reset();
  });
  afterAll(() => t.close());

  it('runs one handler at a time for a connection that pipelines 2,000 GETs and reads nothing', async () => {
    const id = await projectWithLargeDescription(t);
    const handlers = countHandlers();

    sockets.push(
      await pipeline(
        port,
        Array.from({ length: PIPELINED_GETS }, () =>
          rawGet(`/api/projects/${id}`),
        ),
      ),
    );
    const calls = await settle(
      () => handlers.calls,
      HANDLER_RUNS_LIMIT,
      (value) => `${value} handler runs`,
    );

    expect(handlers.most).toBe(1);
    // Only the answers the kernel's buffers take are written; the rest wait.
    expect(calls).toBeLessThanOrEqual(HANDLER_RUNS_LIMIT);
    console.log(`handler runs for a client reading nothing: ${calls}`);
  });

  it('answers a well-behaved pipelining client every request, in order', async () => {
    const a = await createProject(t, { name: 'A' });
    const b = await createProject(t, { name: 'B' });
    const socket = await pipeline(port, [
      rawGet(`/api/projects/${a.id}`),
      rawPost('/api/projects', { name: 'C', userId: 'user-1' }),
      rawGet(`/api/projects/${b.id}`),
      rawGet('/api/projects/no-such-project'),
      rawGet(`/api/projects/${a.id}`),
    ]);
    sockets.push(socket);

    const { answers } = await readAnswers(socket, 5);

    expect(answers.map((answer) => answer.status)).toEqual([
      200, 201, 200, 404, 200,
    ]);
    const names = answers.map(
      (answer) =>
        (JSON.parse(answer.body) as { project?: { name: string } }).project
          ?.name,
    );
    expect(names).toEqual(['A', 'C', 'B', undefined, 'A']);
    // The connection stays open for the next request.
    socket.write(rawGet(`/api/projects/${b.id}`));
    const next = await readAnswers(socket, 1);
    expect(next.answers.map((answer) => answer.status)).toEqual([200]);
  });

  it('answers a client that pipelines more requests than one read holds, in order, as it reads', async () => {
    const { id } = await createProject(t);
    const count = 3_000;
    const socket = await pipeline(
      port,
      Array.from({ length: count }, (_, i) =>
        rawGet(`/api/projects/${id}`, `pipelined-${i}`),
      ),
    );
    sockets.push(socket);

    const { answers } = await readAnswers(socket, count);

    expect(answers).toHaveLength(count);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.map((answer) => answer.headers['x-request-id'])).toEqual(
      Array.from({ length: count }, (_, i) => `pipelined-${i}`),
    );
  });
});

describe('Pipelined requests (the production process)', () => {
  let workDir: string;
  let database: TestDatabase;
  let server: ServerProcess;
  let id: string;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'workspace-pipelining-'));
    database = await createTestDatabase();
    server = await startServer(
      { DATABASE_URL: database.url },
      {
        cwd: workDir,
        nodeArgs: [...POD_HEAP_FLAGS, ...LOOP_MONITOR_NODE_ARGS],
        ipc: true,
      },
    );
    const created = await request(server.baseUrl)
      .post('/api/projects')
      .send({ name: 'Large', userId: 'user-1' })
      .expect(201);
    id = (created.body as { project: { id: string } }).project.id;
    await request(server.baseUrl)
      .patch(`/api/projects/${id}`)
      .send({ description: LARGE_DESCRIPTION })
      .expect(200);
    // Warm-up: the code path compiled before anything is measured.
    for (let i = 0; i < 20; i++) {
      await request(server.baseUrl).get(`/api/projects/${id}`).expect(200);
    }
  });
  afterAll(async () => {
    await server?.kill();
    await database?.drop();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('holds its memory while one connection pipelines 2,000 GETs of a 1 MB project and reads nothing, then answers in order', async () => {
    const before = (await loopWindowStats(server)).rssBytes;
    const port = Number(new URL(server.baseUrl).port);

    const socket = await pipeline(
      port,
      Array.from({ length: PIPELINED_GETS }, (_, i) =>
        rawGet(`/api/projects/${id}`, `pipelined-${i}`),
      ),
    );
    try {
      await settle(
        () => (isRunning(server.pid) ? residentBytes(server.pid) : Infinity),
        before + RSS_GROWTH_LIMIT,
        megabytes,
        1024 * 1024,
      );
      const held = (await loopWindowStats(server)).rssBytes;
      expect(held - before).toBeLessThan(RSS_GROWTH_LIMIT);

      console.log(
        `RSS while 2,000 pipelined GETs of a 1 MB project wait: ${megabytes(before)} -> ${megabytes(held)}`,
      );

      // Reading resumes the answers, in the order they were asked for.
      const { answers } = await readAnswers(socket, ANSWERS_READ);
      expect(answers.map((answer) => answer.headers['x-request-id'])).toEqual(
        Array.from({ length: ANSWERS_READ }, (_, i) => `pipelined-${i}`),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(
          (JSON.parse(answer.body) as { project: { description: string } })
            .project.description,
        ).toHaveLength(LARGE_DESCRIPTION.length);
      }
    } finally {
      socket.destroy();
    }
  });
});
