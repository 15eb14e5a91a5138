import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, type DefaultTreeAdapterTypes } from 'parse5';
import sharp from 'sharp';
import request from 'supertest';
import {
  startDevImageApiProcess,
  type DevImageApiProcess,
} from '../../../support/dev-image-api-process';
import {
  startDevTextApiProcess,
  type DevTextApiProcess,
} from '../../../support/dev-text-api-process';
import { EventStreamClient } from '../../../support/event-stream-client';
import { until } from '../../../support/pending-request';
import type { RunBody } from '../../../support/run-client';
import {
  findFreePort,
  startServer,
  type ServerProcess,
} from '../../../support/server-process';
import { fetchSite } from '../../../support/site-client';
import { pollUntil } from '../../../support/task-client';
import {
  createTestDatabase,
  TEST_DATABASE,
  type TestDatabase,
} from '../../../support/test-database';

/**
 * The README's quick start as a test: the built server as a real process
 * (on PostgreSQL an API process and a separate worker process, on SQLite
 * one process), the dev image and text APIs as their own processes, and
 * one `{"autoChoose": true}` run taking a new project from its brief to a
 * live site. The site is read on the sites listener's own origin
 * (localhost, not the API's 127.0.0.1) with its documented headers, head
 * and files.
 */

const NINE_STEPS = [
  'logo',
  'marketing-copy',
  'icon-set',
  'brand-kit',
  'graphics',
  'wireframe',
  'landing-page',
  'site-check',
  'publish',
];
const SECTIONS = [
  'LOGO',
  'ICONS',
  'GRAPHICS',
  'MARKETING',
  'WIREFRAME',
  'CODE',
  'TESTING',
  'DEPLOYMENT',
];
/** docs/api.md "Published sites": on every answer of the sites origin. */
const SITE_CSP =
  "default-src 'none'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const FINISHED = ['SUCCEEDED', 'FAILED', 'CANCELLED'];
/** A hang guard for the whole run, never a timing assertion. */
const RUN_LIMIT_MS = 120_000;
const POLL_MS = 100;

/** What this suite reads of GET /api/projects/{id}. */
interface ProjectBody {
  sections: Array<{
    type: string;
    status: string;
    assets: Array<{ fileName: string; url: string }>;
  }>;
}

type Element = DefaultTreeAdapterTypes.Element;
type Node =
  DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.Document;

/** Every element of the parsed page, in document order. */
function elementsOf(node: Node): Element[] {
  const found: Element[] = [];
  const children = 'childNodes' in node ? node.childNodes : [];
  for (const child of children) {
    if ('tagName' in child) found.push(child);
    found.push(...elementsOf(child));
  }
  return found;
}

const attribute = (element: Element, name: string) =>
  element.attrs.find((attr) => attr.name === name)?.value;

/**
 * The error lines (pino level 50 and up) a process logged, but the 503s of
 * /health/ready that startServer's probe gets while the warm-up runs.
 */
function errorsLogged(server: ServerProcess): string[] {
  return server.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .filter((line) => {
      const entry = JSON.parse(line) as { level: number; route?: string };
      return entry.level >= 50 && entry.route !== '/health/ready';
    });
}

describe(`From a brief to a live site in one run, as the README says (${TEST_DATABASE}, built processes)`, () => {
  const cwd = mkdtempSync(join(tmpdir(), 'workspace-run-to-site-'));
  const servers: ServerProcess[] = [];
  let database: TestDatabase;
  let imageApi: DevImageApiProcess;
  let textApi: DevTextApiProcess;
  let api: string;
  let sitesOrigin: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    imageApi = await startDevImageApiProcess();
    textApi = await startDevTextApiProcess();
    const sitesPort = await findFreePort();
    // localhost, not the API's 127.0.0.1: the site is an origin of its own.
    sitesOrigin = `http://localhost:${sitesPort}`;
    const env = (role: 'all' | 'api' | 'worker') => ({
      PROCESS_ROLE: role,
      DATABASE_URL: database.url,
      DATABASE_CONNECT_TIMEOUT_MS: '30000',
      IMAGE_API_KEY: 'dev',
      IMAGE_API_URL: imageApi.url,
      TEXT_API_KEY: 'dev',
      TEXT_API_URL: textApi.url,
      SITES_PORT: String(sitesPort),
      SITES_BASE_URL: sitesOrigin,
    });
    // The API first: it migrates, as the first of a rolling update would.
    if (TEST_DATABASE === 'postgres') {
      servers.push(await startServer(env('api'), { cwd }));
      servers.push(await startServer(env('worker'), { cwd }));
    } else {
      servers.push(await startServer(env('all'), { cwd }));
    }
    api = servers[0].baseUrl;
  }, 90_000);

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await imageApi?.stop();
    await textApi?.stop();
    await database?.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  const readRun = async (projectId: string, runId: string) => {
    const answer = await request(api)
      .get(`/api/projects/${projectId}/runs/${runId}`)
      .expect(200);
    return (answer.body as { run: RunBody }).run;
  };

  it('a new project and {"autoChoose": true}: nine steps SUCCEEDED, eight sections DONE, and the site served on its own origin with its icon and og image', async () => {
    const created = await request(api)
      .post('/api/projects')
      .send({ name: 'Acme', description: 'Bikes for hills', userId: 'me' })
      .expect(201);
    const projectId = (created.body as { project: { id: string } }).project.id;
    const stream = await EventStreamClient.open(
      `${api}/api/projects/${projectId}/events`,
    );
    try {
      const startedAt = Date.now();
      const posted = await request(api)
        .post(`/api/projects/${projectId}/runs`)
        .send({ autoChoose: true })
        .expect(202);
      const run = (posted.body as { run: RunBody }).run;
      expect(posted.headers.location).toMatch(
        new RegExp(`/api/projects/${projectId}/runs/${run.id}$`),
      );
      expect(run).toMatchObject({
        status: 'QUEUED',
        autoChoose: true,
        quote: {
          imageCalls: expect.any(Number) as number,
          textCalls: expect.any(Number) as number,
          maxFixes: expect.any(Number) as number,
        },
      });
      expect(run.steps.map((step) => step.type).sort()).toEqual(
        [...NINE_STEPS].sort(),
      );

      const done = await pollUntil(
        () => readRun(projectId, run.id),
        (current) => FINISHED.includes(current.status),
        Math.ceil(RUN_LIMIT_MS / POLL_MS),
        POLL_MS,
      );
      const wallMs = Date.now() - startedAt;
      expect({ status: done.status, error: done.error }).toEqual({
        status: 'SUCCEEDED',
        error: undefined,
      });
      expect(done.steps).toHaveLength(9);
      expect(done.steps.map((step) => step.type).sort()).toEqual(
        [...NINE_STEPS].sort(),
      );
      for (const step of done.steps) {
        expect({ type: step.type, status: step.status }).toEqual({
          type: step.type,
          status: 'SUCCEEDED',
        });
        expect(step.taskId).toEqual(expect.any(String));
        const task = await request(api)
          .get(`/api/projects/${projectId}/tasks/${step.taskId}`)
          .expect(200);
        expect(task.body).toMatchObject({
          task: { type: step.type, status: 'SUCCEEDED' },
        });
      }

      const project = (
        (await request(api).get(`/api/projects/${projectId}`).expect(200))
          .body as { project: ProjectBody }
      ).project;
      expect(
        Object.fromEntries(
          project.sections.map((section) => [section.type, section.status]),
        ),
      ).toEqual(Object.fromEntries(SECTIONS.map((type) => [type, 'DONE'])));

      /** The bytes of the section's asset of that file name, from the API. */
      const assetBytes = async (sectionType: string, fileName: string) => {
        const section = project.sections.find(
          (candidate) => candidate.type === sectionType,
        )!;
        const assets = section.assets.filter(
          (asset) => asset.fileName === fileName,
        );
        expect(assets).toHaveLength(1);
        const answer = await fetch(assets[0].url);
        expect(answer.status).toBe(200);
        return Buffer.from(await answer.arrayBuffer());
      };

      const site = (
        (await request(api).get(`/api/projects/${projectId}/site`).expect(200))
          .body as {
          site: { url: string; version: number; versionUrl: string };
        }
      ).site;
      expect(site).toMatchObject({
        url: `${sitesOrigin}/${projectId}/`,
        version: 1,
        versionUrl: `${sitesOrigin}/${projectId}/v1/`,
      });
      expect(done.siteUrl).toBe(site.url);

      // The site's own origin: the listener's port, with its headers.
      const page = await fetchSite(site.url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toBe(SITE_CSP);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('set-cookie')).toBeNull();
      const elements = elementsOf(parse(page.bytes.toString('utf8')));
      const icons = elements.filter(
        (element) =>
          element.tagName === 'link' && attribute(element, 'rel') === 'icon',
      );
      expect(icons.map((icon) => attribute(icon, 'href'))).toContain(
        'favicon.ico',
      );
      const ogImage = elements.filter(
        (element) =>
          element.tagName === 'meta' &&
          attribute(element, 'property') === 'og:image',
      );
      expect(ogImage.map((meta) => attribute(meta, 'content'))).toEqual([
        `${site.url}og.png`,
      ]);
      // The page is not on the API's origin, only on the listener's.
      expect(new URL(site.url).origin).not.toBe(new URL(api).origin);
      expect((await fetchSite(`${api}/${projectId}/`)).status).toBe(404);

      const favicon = await fetchSite(new URL('favicon.ico', site.url).href);
      expect(favicon.status).toBe(200);
      expect(favicon.headers.get('content-type')).toBe('image/x-icon');
      expect(favicon.headers.get('set-cookie')).toBeNull();
      // An ICO file's header: reserved 0, type 1 (icon).
      expect([...favicon.bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]);

      const og = await fetchSite(new URL('og.png', site.url).href);
      expect(og.status).toBe(200);
      expect(og.headers.get('content-type')).toBe('image/png');
      expect(og.headers.get('set-cookie')).toBeNull();
      expect(await sharp(og.bytes).metadata()).toMatchObject({
        format: 'png',
        width: 1200,
        height: 630,
      });
      // Both are the project's own: its brand kit's favicon, its og graphic.
      expect(
        favicon.bytes.equals(await assetBytes('ICONS', 'favicon.ico')),
      ).toBe(true);
      expect(og.bytes.equals(await assetBytes('GRAPHICS', 'og.png'))).toBe(
        true,
      );

      // Every move announced: QUEUED first, the finished run last.
      await until(
        () =>
          stream
            .changes()
            .some(
              (event) =>
                event.type === 'run.updated' &&
                event.data.status === 'SUCCEEDED',
            ),
        'the run.updated event of its success',
      );
      const runEvents = stream
        .changes()
        .filter((event) => event.type === 'run.updated');
      expect(runEvents[0].data).toMatchObject({
        runId: run.id,
        status: 'QUEUED',
      });
      expect(runEvents.at(-1)!.data.run).toEqual(done);

      // Nothing went wrong on the way that an answer did not show.
      for (const server of servers) expect(errorsLogged(server)).toEqual([]);

      process.stdout.write(
        `run-to-site on ${TEST_DATABASE}: the run took ${wallMs} ms from POST to SUCCEEDED (${runEvents.length} run.updated events)\n`,
      );
    } finally {
      await stream.close();
    }
  }, 180_000);
});
