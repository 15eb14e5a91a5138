import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cpuTimeUs,
  MB,
  peakRssBytes,
  resetPeakRss,
  rssBytes,
} from '../../../../bench/proc-stats';
import { seededUserId } from '../../../../bench/seed-rows';
import {
  heldListSnapshots,
  waitForNoListSnapshots,
} from '../../../support/list-snapshots';
import { POD_HEAP_FLAGS } from '../../../../bench/pod-heap';
import {
  assertListOrder,
  dropListAfter,
  openList,
  readList,
  type ListedProject,
} from '../../../support/project-list-client';
import {
  LOOP_MONITOR_NODE_ARGS,
  loopWindowStats,
  startLoopWindow,
} from '../../../support/loop-monitor';
import { seedProjects } from '../../../support/seed-projects';
import {
  startServer,
  type ServerProcess,
} from '../../../support/server-process';
import {
  createTestDatabase,
  type TestDatabase,
} from '../../../support/test-database';
import { timedGet } from '../../../support/timed-get';

/**
 * The full list (GET /api/projects) of a large workspace, from a real server process on
 * a database seeded directly (as bench/ does): whole, in bounded memory,
 * with the rest of the service answering meanwhile, and stopped at once
 * when its client goes away. Runs on SQLite and on PostgreSQL.
 */
const PROJECTS = 100_000;
const USERS = 5_000;
const RSS_GROWTH_LIMIT = 64 * MB;
/**
 * A list built whole (what this guards against) held the server's event
 * loop, and every probe sent meanwhile, for 1.65 s at this size. The server
 * measures itself (support/event-loop-monitor.ts): the longest delay of its
 * loop during which its own main thread was running, which other processes
 * on the machine cannot lengthen, is held to 250 ms (12 ms alone; SQLite
 * chunks of 16 MB instead of 64 KB make it 270 ms). Probe times taken from
 * this process also carry this process's own pauses: in a full e2e run its
 * Jest worker, parsing the list, stopped for up to 1.2 s while the server's
 * loop delay stayed under 30 ms, and one CI run had 27 probes of 1.7-2.0 s.
 * So their times are not held here, only their statuses; the bench's
 * list-all-large scenario measures the p99 (≤ 50 ms) on a quiet machine.
 */
const LOOP_HOLD_LIMIT_MS = 250;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`GET /api/projects with ${PROJECTS.toLocaleString('en')} projects (a real process)`, () => {
  let workDir: string;
  let database: TestDatabase;
  let server: ServerProcess;
  let ids: string[];

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'workspace-large-list-'));
    database = await createTestDatabase();
    // The service migrates the database on its first start.
    const migrating = await startServer(
      { DATABASE_URL: database.url },
      { cwd: workDir },
    );
    await migrating.stop();
    ids = await seedProjects(database.url, PROJECTS, USERS);
    server = await startServer(
      { DATABASE_URL: database.url },
      {
        cwd: workDir,
        nodeArgs: [...POD_HEAP_FLAGS, ...LOOP_MONITOR_NODE_ARGS],
        ipc: true,
      },
    );
    // Warm-up: code paths compiled and pools open before anything is measured.
    await readList(
      await openList(
        `${server.baseUrl}/api/projects?userId=${seededUserId(1)}`,
      ),
    );
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('sends every project once, whole and in order, while its RSS grows by at most 64 MB and a slow client holds it up', async () => {
    const baseline = rssBytes(server.pid);
    const kernelPeak = resetPeakRss(server.pid);
    let sampledPeak = baseline;
    const sampler = setInterval(() => {
      sampledPeak = Math.max(sampledPeak, rssBytes(server.pid));
    }, 20);

    const seen = new Set<string>();
    let previous: ListedProject | undefined;
    let whole = true;
    const result = await readList(
      await openList(`${server.baseUrl}/api/projects`),
      (project) => {
        seen.add(project.id);
        assertListOrder(previous, project);
        previous = project;
        whole &&= project.sections.length === 8 && project.agents.length === 3;
      },
      // A client that stops reading for a while: the server must wait, not
      // buffer the rest of the list.
      { pauseAtBytes: 20 * MB, pauseMs: 1500 },
    );
    clearInterval(sampler);
    const peak = kernelPeak ? peakRssBytes(server.pid) : sampledPeak;

    expect(result).toMatchObject({ status: 200, complete: true });
    expect(result.count).toBe(PROJECTS);
    expect(seen.size).toBe(PROJECTS);
    expect(ids.every((id) => seen.has(id))).toBe(true);
    expect(whole).toBe(true);
    expect(peak - baseline).toBeLessThanOrEqual(RSS_GROWTH_LIMIT);
  }, 300_000);

  it('answers GETs by id and /health/ready while the full list streams: every one answered, its loop never held over 250 ms', async () => {
    await startLoopWindow(server);
    const listing = readList(await openList(`${server.baseUrl}/api/projects`));
    let done = false;
    void listing.finally(() => (done = true));
    const answers: Array<{ status: number; ms: number; path: string }> = [];
    for (let i = 0; !done; i += 1) {
      const path =
        i % 2 === 0
          ? `/api/projects/${ids[(i * 7919) % ids.length]}`
          : '/health/ready';
      answers.push({ path, ...(await timedGet(`${server.baseUrl}${path}`)) });
      await sleep(50);
    }
    expect(await listing).toMatchObject({ complete: true, count: PROJECTS });
    const loop = await loopWindowStats(server);
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(loop.maxStallMs).toBeLessThanOrEqual(LOOP_HOLD_LIMIT_MS);
  }, 300_000);

  it('stops reading at once when the client drops the list after 1 MB, and serves the next list', async () => {
    const response = await openList(`${server.baseUrl}/api/projects`);
    await dropListAfter(response, 1 * MB);
    await sleep(100);
    const cpuBefore = cpuTimeUs(server.pid);
    await sleep(1000);
    const busy = (cpuTimeUs(server.pid) - cpuBefore) / 1_000_000;
    // Idle: a list still being read keeps a core busy (about 1.0); a
    // stopped one leaves a few of the kernel's 10 ms ticks for a collection
    // or a timer (0.06 seen while the other Jest worker loaded the machine).
    expect(busy).toBeLessThanOrEqual(0.1);
    expect(await heldListSnapshots(database.url)).toBe(0);

    const again = await openList(`${server.baseUrl}/api/projects`);
    expect(await heldListSnapshots(database.url)).toBe(1);
    await dropListAfter(again, 1 * MB);
    expect(await waitForNoListSnapshots(database.url)).toBe(0);
    const mine = await readList(
      await openList(
        `${server.baseUrl}/api/projects?userId=${seededUserId(7)}`,
      ),
    );
    expect(mine).toMatchObject({
      status: 200,
      complete: true,
      count: PROJECTS / USERS,
    });
  }, 60_000);
});
