import { Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { ConfigType } from '@nestjs/config';
import { databaseConfig } from '../../../../src/database/database.config';
import { limitsConfig } from '../../../../src/common/limits.config';
import type { JsonCursor } from '../../../../src/database/json-cursor';
import { SnapshotReader } from '../../../../src/database/snapshot-reader';
import { CapturingLogger } from '../../../support/capturing-logger';
import {
  heldListSnapshots,
  terminateListSessions,
  waitForNoListSnapshots,
} from '../../../support/list-snapshots';
import {
  assertListOrder,
  dropListAfter,
  openList,
  readList,
  type ListedProject,
} from '../../../support/project-list-client';
import { createProject } from '../../../support/project-fixtures';
import { seedProjects } from '../../../support/seed-projects';
import { createTestApp, type TestApp } from '../../../support/test-app';
import { TEST_DATABASE } from '../../../support/test-database';

/**
 * GET /api/projects without a page is streamed from one snapshot of the database
 * (see the README, "Large lists"). These run on SQLite and on PostgreSQL.
 */

/** Texts that JSON must escape or that span several UTF-8 bytes. */
const AWKWARD_TEXTS = [
  'Quotes "double" and \'single\' and a back\\slash',
  'Control \u0001\u0007\b\f\n\r\t\u001f characters',
  'Unicode: Ünïcödé, 漢字, עברית, emoji 🚀👩‍💻, \u2028\u2029',
  '</script><script>alert(1)</script>',
];

/** A list body as the paged (unstreamed) renderer builds it, page by page. */
async function pagedBody(t: TestApp, userQuery = ''): Promise<string> {
  const pieces: string[] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor ? `&cursor=${cursor}` : '';
    const { text } = await request(t.server)
      .get(`/api/projects?limit=500${userQuery}${after}`)
      .expect(200);
    const body = JSON.parse(text) as { nextCursor: string | null };
    const items = text.slice(
      '{"projects":['.length,
      text.lastIndexOf('],"nextCursor":'),
    );
    if (items !== '') pieces.push(items);
    cursor = body.nextCursor;
  } while (cursor);
  return `{"projects":[${pieces.join(',')}]}`;
}

const streamedBody = async (t: TestApp, query = '') =>
  (await request(t.server).get(`/api/projects${query}`).expect(200)).text;

describe('GET /api/projects streams the unpaged list from a snapshot', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  describe('the streamed body equals the body built whole, byte for byte', () => {
    it('for no project', async () => {
      expect(await streamedBody(t)).toBe('{"projects":[]}');
      expect(await streamedBody(t, '?userId=nobody')).toBe('{"projects":[]}');
    });

    it('for one project with quotes, control characters and unicode', async () => {
      await createProject(t, {
        name: AWKWARD_TEXTS[0],
        description: AWKWARD_TEXTS[1],
        userId: AWKWARD_TEXTS[2],
      });
      const body = await streamedBody(t);
      expect(body).toBe(await pagedBody(t));
      // Compact, as JSON.stringify writes it, on every database.
      expect(body).toBe(JSON.stringify(JSON.parse(body)));
      const [listed] = (JSON.parse(body) as { projects: ListedProject[] })
        .projects;
      expect(listed.name).toBe(AWKWARD_TEXTS[0]);
      expect(listed.userId).toBe(AWKWARD_TEXTS[2]);
    });

    it('for many projects over many chunks, with and without userId', async () => {
      for (const [i, text] of AWKWARD_TEXTS.entries()) {
        await createProject(t, { name: text, description: text, userId: text });
        await createProject(t, { name: `plain ${i}`, userId: 'alice' });
      }
      await seedProjects(t.databaseUrl, 1500, 3);

      const all = await streamedBody(t);
      expect(all).toBe(await pagedBody(t));
      expect(
        (JSON.parse(all) as { projects: unknown[] }).projects,
      ).toHaveLength(1500 + 2 * AWKWARD_TEXTS.length);

      for (const userId of ['alice', AWKWARD_TEXTS[2], 'bench-user-00001']) {
        const query = `&userId=${encodeURIComponent(userId)}`;
        const mine = await streamedBody(t, `?${query.slice(1)}`);
        expect(mine).toBe(await pagedBody(t, query));
        const { projects } = JSON.parse(mine) as { projects: ListedProject[] };
        expect(projects.length).toBeGreaterThan(0);
        expect(projects.every((p) => p.userId === userId)).toBe(true);
      }
    });
  });

  it('lists each project that existed when the list began exactly once, as it was then, while creates, patches and deletes run', async () => {
    // Far more than the socket buffers hold: the server is still reading
    // rows while the writes below run.
    const seeded = await seedProjects(t.databaseUrl, 10_000, 50);
    const before = new Map<string, ListedProject>();
    const reference = await readList(
      await openList(`${await urlOf(t)}/api/projects`),
      (project) => before.set(project.id, project),
    );
    expect(reference.count).toBe(10_000);

    const response = await openList(`${await urlOf(t)}/api/projects`);
    // Seeding order is list order reversed: the oldest projects, listed
    // last, are the ones the server has not read yet.
    const oldest = seeded.slice(0, 60);
    const writes = Promise.all([
      ...oldest.slice(0, 30).map((id, i) =>
        request(t.server)
          .patch(`/api/projects/${id}`)
          .send({ name: `renamed ${i}` })
          .expect(200),
      ),
      ...oldest
        .slice(30, 60)
        .map((id) =>
          request(t.server).delete(`/api/projects/${id}`).expect(200),
        ),
      ...Array.from({ length: 30 }, (_, i) =>
        createProject(t, { name: `created during the list ${i}` }),
      ),
    ]);
    // The writes must not wait for the list, which waits for its reader.
    await expect(withTimeout(writes, 15_000)).resolves.toBeDefined();
    // The list was still being read while they ran.
    expect(await heldListSnapshots(t.databaseUrl)).toBe(1);

    const seen = new Set<string>();
    let previous: ListedProject | undefined;
    const streamed = await readList(response, (project) => {
      expect(seen.has(project.id)).toBe(false);
      seen.add(project.id);
      assertListOrder(previous, project);
      previous = project;
      expect(project.sections).toHaveLength(8);
      expect(project.agents).toHaveLength(3);
      // As it was when the list began: not renamed, not moved.
      expect(project).toEqual(before.get(project.id));
    });
    expect(streamed).toMatchObject({ status: 200, complete: true });
    expect(streamed.count).toBe(10_000);

    const after = JSON.parse(await streamedBody(t)) as {
      projects: ListedProject[];
    };
    expect(after.projects).toHaveLength(10_000 - 30 + 30);
    expect(after.projects[0].name).toMatch(/^(renamed|created during)/);
  });

  it('releases the snapshot at once when the client drops the list', async () => {
    await seedProjects(t.databaseUrl, 3_000, 10);
    const response = await openList(`${await urlOf(t)}/api/projects`);
    expect(await heldListSnapshots(t.databaseUrl)).toBe(1);
    await dropListAfter(response, 1024 * 1024);
    expect(await waitForNoListSnapshots(t.databaseUrl)).toBe(0);
    const next = await readList(
      await openList(`${await urlOf(t)}/api/projects`),
    );
    expect(next).toMatchObject({ status: 200, complete: true, count: 3_000 });
  });

  if (TEST_DATABASE === 'postgres') {
    it('cuts the connection when PostgreSQL ends the list session mid-stream, and serves the next list', async () => {
      await seedProjects(t.databaseUrl, 5_000, 10);
      const response = await openList(`${await urlOf(t)}/api/projects`);
      expect(await terminateListSessions(t.databaseUrl)).toBe(1);
      const cut = await readList(response);
      expect(cut).toMatchObject({
        status: 200,
        aborted: true,
        complete: false,
      });
      expect(cut.count).toBeLessThan(5_000);
      const next = await readList(
        await openList(`${await urlOf(t)}/api/projects`),
      );
      expect(next).toMatchObject({ complete: true, count: 5_000 });
    });
  }
});

describe('GET /api/projects when the client stalls', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ LIST_IDLE_TIMEOUT_MS: '300' });
  });
  afterAll(() => t.close());

  it('cuts off a client that reads nothing for LIST_IDLE_TIMEOUT_MS, releases its snapshot and counts it', async () => {
    await seedProjects(t.databaseUrl, 10_000, 10);
    const response = await openList(`${await urlOf(t)}/api/projects`);
    // Not read: the server's writes stall once the socket buffers fill,
    // and the server cuts the list off after 300 ms.
    expect(await heldListSnapshots(t.databaseUrl)).toBe(1);
    expect(await waitForNoListSnapshots(t.databaseUrl, 10_000)).toBe(0);
    const cut = await readList(response);
    expect(cut).toMatchObject({ status: 200, aborted: true, complete: false });
    const { text } = await request(t.server).get('/metrics').expect(200);
    expect(text).toMatch(
      /http_response_streams_cut_off_total\{route="\/api\/projects",reason="stalled_client"\} 1/,
    );
  });
});

/**
 * A JsonCursor that fails on its `failAt`-th chunk (1 = the first), around
 * the real one: a database failure at a chosen moment of a list.
 */
class FailingSnapshotReader extends SnapshotReader {
  static failAt = 0;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(databaseConfig.KEY) config: ConfigType<typeof databaseConfig>,
    @Inject(limitsConfig.KEY) limits: ConfigType<typeof limitsConfig>,
  ) {
    super(dataSource, config, limits);
  }

  override async openJson(text: string, params: unknown[]) {
    const cursor = await super.openJson(text, params);
    let chunks = 0;
    const failing: JsonCursor = {
      next: async () => {
        chunks += 1;
        if (chunks === FailingSnapshotReader.failAt) {
          throw new Error('injected read failure');
        }
        return cursor.next();
      },
      close: () => cursor.close(),
    };
    return failing;
  }
}

describe('GET /api/projects when reading the list fails', () => {
  let t: TestApp;
  const logger = new CapturingLogger();

  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        logger,
        override: (builder) =>
          builder
            .overrideProvider(SnapshotReader)
            .useClass(FailingSnapshotReader),
      },
    );
    await seedProjects(t.databaseUrl, 3_000, 10);
  });
  afterEach(() => {
    FailingSnapshotReader.failAt = 0;
  });
  afterAll(() => t.close());

  it('answers 500 {error:"Failed to fetch projects"} when it fails before the first byte', async () => {
    FailingSnapshotReader.failAt = 1;
    const res = await request(t.server).get('/api/projects').expect(500);
    expect(res.body).toEqual({
      error: 'Failed to fetch projects',
      code: expect.any(String),
    });
    expect(await waitForNoListSnapshots(t.databaseUrl)).toBe(0);
  });

  it('destroys the connection when it fails after the first byte, so the body never parses; logs the request id and counts it', async () => {
    FailingSnapshotReader.failAt = 3;
    const response = await openListWithId(t, 'list-failure-1');
    const cut = await readList(response);
    expect(cut).toMatchObject({ status: 200, aborted: true, complete: false });
    expect(cut.bytes).toBeGreaterThan(0);
    expect(await waitForNoListSnapshots(t.databaseUrl)).toBe(0);

    expect(
      logger.lines.some(
        (line) =>
          line.includes('list-failure-1') &&
          line.includes('injected read failure'),
      ),
    ).toBe(true);
    const { text } = await request(t.server).get('/metrics').expect(200);
    expect(text).toMatch(
      /http_response_streams_cut_off_total\{route="\/api\/projects",reason="error"\} 1/,
    );

    FailingSnapshotReader.failAt = 0;
    const next = await readList(await openListWithId(t, 'list-after'));
    expect(next).toMatchObject({ status: 200, complete: true, count: 3_000 });
  });
});

async function urlOf(t: TestApp): Promise<string> {
  if (!t.server.listening) {
    await new Promise<void>((resolve) =>
      t.server.listen(0, '127.0.0.1', resolve),
    );
  }
  const address = t.server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('the test app is not listening on a TCP port');
  }
  return `http://127.0.0.1:${address.port}`;
}

const openListWithId = async (t: TestApp, requestId: string) =>
  openList(`${await urlOf(t)}/api/projects`, { 'X-Request-Id': requestId });

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not done in ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
