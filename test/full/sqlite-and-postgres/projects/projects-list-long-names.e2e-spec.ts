import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MB, rssBytes } from '../../../../bench/proc-stats';
import { POD_HEAP_FLAGS } from '../../../../bench/pod-heap';
import {
  LOOP_MONITOR_NODE_ARGS,
  loopWindowStats,
  startLoopWindow,
} from '../../../support/loop-monitor';
import { openList, readList } from '../../../support/project-list-client';
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
 * PATCH stores a name of any length the body limit lets through, so every
 * list carries such names: 40 projects with 950 KB names (a 38 MB list),
 * from a real server process, on SQLite and PostgreSQL. The list is still
 * streamed (the process does not hold it whole), every name arrives exact,
 * and the service keeps answering while it streams.
 */
const PROJECTS = 40;
const USER = 'long-names';
/** Far below the 38 MB a list built whole would take (and its copies). */
const RSS_GROWTH_LIMIT = 64 * MB;
/**
 * Probes (liveness GETs while the list streams) must all be answered; how
 * long they take is not held, since it is measured from this process and a
 * 2-core machine shared with other suites lengthens it (alone, the median
 * took 40-50 ms; in a full CI pass it reached 262 ms). What is held is the
 * server's own longest loop hold (support/event-loop-monitor.ts, which
 * other processes cannot lengthen; 17 ms alone): at most 250 ms.
 */
const LOOP_HOLD_LIMIT_MS = 250;

/** Non-ASCII too: 950 KB of UTF-8 in all, distinct per project. */
const longName = (i: number) =>
  `${i}:` + 'é€'.repeat(50_000) + 'n'.repeat(700_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('lists of projects whose names PATCH made nearly BODY_LIMIT long (a real process)', () => {
  let workDir: string;
  let database: TestDatabase;
  let server: ServerProcess;
  const names = new Map<string, string>();

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'workspace-long-names-'));
    database = await createTestDatabase();
    server = await startServer(
      { DATABASE_URL: database.url },
      {
        cwd: workDir,
        nodeArgs: [...POD_HEAP_FLAGS, ...LOOP_MONITOR_NODE_ARGS],
        ipc: true,
      },
    );
    for (let i = 0; i < PROJECTS; i++) {
      const created = await fetch(`${server.baseUrl}/api/projects`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `p${i}`, userId: USER }),
      });
      const { project } = (await created.json()) as { project: { id: string } };
      const name = longName(i);
      const patched = await fetch(
        `${server.baseUrl}/api/projects/${project.id}`,
        {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name }),
        },
      );
      if (patched.status !== 200) {
        throw new Error(`PATCH answered ${patched.status}`);
      }
      names.set(project.id, name);
    }
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('streams the full list with every name exact, within 64 MB of RSS growth, answering every probe meanwhile (its loop never held over 250 ms)', async () => {
    const baseline = rssBytes(server.pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssBytes(server.pid));
    }, 20);
    await startLoopWindow(server);
    const exact: boolean[] = [];
    const listing = readList(
      await openList(`${server.baseUrl}/api/projects?userId=${USER}`),
      (project) => exact.push(names.get(project.id) === project.name),
    );
    let done = false;
    void listing.finally(() => (done = true));
    const probes: Array<{ status: number; ms: number }> = [];
    while (!done) {
      probes.push(await timedGet(`${server.baseUrl}/health/live`));
      await sleep(20);
    }
    clearInterval(sampler);
    const loop = await loopWindowStats(server);

    expect(await listing).toMatchObject({
      status: 200,
      complete: true,
      count: PROJECTS,
    });
    expect(exact).toEqual(new Array<boolean>(PROJECTS).fill(true));
    expect(peak - baseline).toBeLessThanOrEqual(RSS_GROWTH_LIMIT);
    expect(probes.filter((p) => p.status !== 200)).toEqual([]);
    expect(probes.length).toBeGreaterThan(0);
    expect(loop.maxStallMs).toBeLessThanOrEqual(LOOP_HOLD_LIMIT_MS);
  }, 120_000);

  it('pages through them with every name exact', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ userId: USER, limit: '7' });
      if (cursor) query.set('cursor', cursor);
      const page = (await (
        await fetch(`${server.baseUrl}/api/projects?${query.toString()}`)
      ).json()) as {
        projects: { id: string; name: string }[];
        nextCursor: string | null;
      };
      for (const project of page.projects) {
        expect(project.name === names.get(project.id)).toBe(true);
        seen.push(project.id);
      }
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(PROJECTS);
  }, 120_000);
});
