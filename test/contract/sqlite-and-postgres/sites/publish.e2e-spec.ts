import request from 'supertest';
import { SitesServer } from '../../../../src/sites/sites-server';
import { SITE_CSP } from '../../../../src/sites/site-headers';
import {
  ASSET_STORES,
  startAssetStore,
  type AssetStoreUnderTest,
} from '../../../support/asset-stores';
import { createProject } from '../../../support/project-fixtures';
import {
  chosenPage,
  keepKit,
  keepOgGraphic,
  keepReport,
} from '../../../support/site-parts';
import {
  fetchSite,
  freePort,
  untilBody,
  untilStatus,
} from '../../../support/site-client';
import {
  postTask,
  readProject,
  sectionOf,
  startTask,
  waitForTask,
} from '../../../support/task-client';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Publishing end to end: the publish task's gate on the chosen page's
 * site check report, the site served on the sites origin (its own
 * listener with SITES_STORE=database, the bucket with s3) with its icons,
 * social card and headers, versions, rollback and take-down, and the
 * site routes' refusals. Runs on SQLite and PostgreSQL, both stores.
 */

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Acme Rockets</title>
<meta property="og:title" content="Old title">
<meta name="twitter:card" content="summary">
<link rel="icon" href="https://elsewhere.example/icon.png">
<style>body { color: #123; }</style>
</head><body><h1>Acme Rockets</h1><p>Version one.</p></body></html>`;

const ERROR_FINDING = {
  rule: 'image-alt',
  severity: 'error' as const,
  message: 'An image has no alt text',
  selector: 'img',
};

describe.each(ASSET_STORES)('Publishing sites (SITES_STORE=%s)', (kind) => {
  let store: AssetStoreUnderTest;
  let t: TestApp;
  let siteOrigin: string;

  beforeAll(async () => {
    store = await startAssetStore(kind);
    const port = await freePort();
    // With s3 the bucket (path style, as the local server answers) is the origin.
    siteOrigin =
      kind === 's3'
        ? `${store.env.ASSET_S3_ENDPOINT}/${store.env.ASSET_S3_BUCKET}`
        : `http://127.0.0.1:${port}`;
    t = await createTestApp({
      ...store.env,
      SITES_STORE: kind,
      SITES_PORT: String(port),
      SITES_HOST: '127.0.0.1',
      SITES_BASE_URL: siteOrigin,
      TASK_RETRY_DELAY_MS: '50',
    });
    await t.app.get(SitesServer).start();
  });
  afterAll(async () => {
    await t?.close();
    await store?.close();
  });
  beforeEach(async () => {
    await t.reset();
    await store.reset();
  });

  /** A site address as a file URL: the bucket has no index documents. */
  const fileUrl = (siteUrl: string, file = '') =>
    kind === 's3' ? `${siteUrl}${file || 'index.html'}` : `${siteUrl}${file}`;

  const publish = async (projectId: string, input: object = {}) => {
    const task = await startTask(t, projectId, { type: 'publish', input });
    const done = await waitForTask(t, projectId, task.id);
    expect(done).toMatchObject({ status: 'SUCCEEDED', error: null });
    return done;
  };

  const getSite = (projectId: string) =>
    request(t.server).get(`/api/projects/${projectId}/site`);

  it('GET site is 404 before anything is published; a publish without a chosen page is 409 nothing_chosen', async () => {
    const project = await createProject(t, { name: 'Acme Rockets' });
    const before = await getSite(project.id).expect(404);
    expect(before.body).toEqual({
      error: 'Site not found',
      code: 'site_not_found',
    });
    const refused = await postTask(t, project.id, {
      type: 'publish',
      input: {},
    }).expect(409);
    expect(refused.body.code).toBe('nothing_chosen');
  });

  it('the gate: an unchecked page is 409 site_not_checked; a report with errors is 409 with the report; force publishes and records what it went past', async () => {
    const project = await createProject(t, { name: 'Acme Rockets' });
    const pageId = await chosenPage(t, project.id, PAGE);

    const unchecked = await postTask(t, project.id, { type: 'publish' }).expect(
      409,
    );
    expect(unchecked.body).toEqual({
      error: expect.stringContaining('no site check report') as string,
      code: 'site_not_checked',
    });

    const findings = Array.from({ length: 60 }, (_, i) => ({
      ...ERROR_FINDING,
      message: `finding ${i}`,
    }));
    const reportId = await keepReport(t, project.id, pageId, findings);
    const failed = await postTask(t, project.id, {
      type: 'publish',
      input: { force: false },
    }).expect(409);
    expect(failed.body).toMatchObject({
      code: 'site_check_failed',
      report: {
        assetId: pageId,
        passed: false,
        counts: { error: 60, warning: 0, info: 0 },
      },
    });
    expect(failed.body.report.findings).toHaveLength(50);
    expect(failed.body.report.findings[0]).toEqual({ ...findings[0] });
    // Nothing was queued.
    expect((await readProject(t, project.id)).tasks).toEqual([]);

    const forced = await publish(project.id, { force: true });
    expect(forced.input).toEqual({ force: true, pageId, reportId });
    const record = (await readProject(t, project.id)).assets.find(
      (asset) => asset.kind === 'deployment',
    )!;
    const deployment = JSON.parse(
      (
        await request(t.server)
          .get(new URL(record.url, 'http://x').pathname)
          .buffer(true)
          .parse((res, done) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => done(null, Buffer.concat(chunks)));
          })
          .expect(200)
      ).body.toString(),
    ) as { version: number; reportId: string | null };
    expect(deployment).toMatchObject({ version: 1, reportId });
  });

  it('a passing report publishes version 1: the page with its icons and social card, its favicon and og image, on the sites origin with the documented headers', async () => {
    const project = await createProject(t, {
      name: 'Acme Rockets',
      description: 'Rockets for everyone',
    });
    const pageId = await chosenPage(t, project.id, PAGE);
    const reportId = await keepReport(t, project.id, pageId, [
      { rule: 'color-contrast', severity: 'warning', message: 'Low contrast' },
    ]);
    const { favicon } = await keepKit(t, project.id, pageId);
    const og = await keepOgGraphic(t, project.id);

    const task = await publish(project.id);
    expect(task.input).toEqual({ pageId, reportId });
    const { body } = await getSite(project.id).expect(200);
    const siteUrl =
      kind === 's3'
        ? `${siteOrigin}/sites/${project.id}/current/`
        : `${siteOrigin}/${project.id}/`;
    expect(body.site).toEqual({
      url: siteUrl,
      version: 1,
      versionUrl: siteUrl.replace(
        /current\/$|$/,
        kind === 's3' ? 'v1/' : 'v1/',
      ),
      publishedAt: expect.any(String) as string,
      deploymentId: task.assetIds[0],
    });
    const state = await readProject(t, project.id);
    expect(state.assets.find((a) => a.id === task.assetIds[0])).toMatchObject({
      kind: 'deployment',
      contentType: 'application/json',
      sectionId: sectionOf(state, 'DEPLOYMENT').id,
    });
    // Not the API's origin.
    expect(new URL(siteUrl).origin).not.toBe('http://127.0.0.1');

    const page = await fetchSite(fileUrl(siteUrl));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = page.bytes.toString('utf8');
    expect(html).toContain('<h1>Acme Rockets</h1>');
    expect(html).toContain('<link rel="icon" href="favicon.ico">');
    expect(html).toContain(
      '<link rel="apple-touch-icon" href="apple-touch-icon.png">',
    );
    expect(html).toContain('<meta property="og:title" content="Acme Rockets">');
    expect(html).toContain(
      '<meta property="og:description" content="Rockets for everyone">',
    );
    expect(html).toContain(
      `<meta property="og:image" content="${siteUrl}og.png">`,
    );
    expect(html).toContain(`<meta property="og:url" content="${siteUrl}">`);
    expect(html).toContain(
      '<meta name="twitter:card" content="summary_large_image">',
    );
    // The page's own are replaced, not kept beside.
    expect(html).not.toContain('Old title');
    expect(html).not.toContain('elsewhere.example');
    expect(html.match(/twitter:card/g)).toHaveLength(1);

    const icon = await fetchSite(fileUrl(siteUrl, 'favicon.ico'));
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    expect(icon.bytes.equals(favicon)).toBe(true);
    const image = await fetchSite(fileUrl(siteUrl, 'og.png'));
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.bytes.equals(og)).toBe(true);

    for (const answer of [page, icon, image]) {
      expect(answer.headers.get('set-cookie')).toBeNull();
      expect(answer.headers.get('cache-control')).toBe('public, max-age=5');
    }
    if (kind === 'database') {
      for (const answer of [page, icon, image]) {
        expect(answer.headers.get('content-security-policy')).toBe(SITE_CSP);
        expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
        expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      }
      const versioned = await fetchSite(`${siteUrl}v1/og.png`);
      expect(versioned.status).toBe(200);
      expect(versioned.headers.get('cache-control')).toBe(
        'public, max-age=31536000, immutable',
      );
      const again = await fetchSite(`${siteUrl}v1/og.png`, {
        headers: { 'If-None-Match': versioned.headers.get('etag')! },
      });
      expect(again.status).toBe(304);
      const head = await fetchSite(siteUrl, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.bytes).toHaveLength(0);
      const post = await fetchSite(siteUrl, { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD');
      const slash = await fetchSite(siteUrl.slice(0, -1));
      expect(slash.status).toBe(301);
      expect(slash.headers.get('location')).toBe(`/${project.id}/`);
      for (const path of [
        `${siteUrl}../etc/passwd`,
        `${siteUrl}%2e%2e/x`,
        `${siteUrl}logo.png`,
        `${siteUrl}v0/`,
        `${siteUrl}v2/`,
        `${siteOrigin}/not-a-project/`,
        `${siteOrigin}/${'a'.repeat(300)}`,
      ]) {
        const miss = await fetchSite(path);
        expect([path, miss.status]).toEqual([path, 404]);
        expect(miss.headers.get('content-type')).toBe(
          'text/plain; charset=utf-8',
        );
        expect(miss.headers.get('content-security-policy')).toBe(SITE_CSP);
      }
    }
  });

  it('a second publish is version 2; rollback to 1 serves version 1 at the current address; DELETE takes it down and rollback brings it back', async () => {
    const project = await createProject(t, { name: 'Acme Rockets' });
    const first = await chosenPage(t, project.id, PAGE);
    await keepReport(t, project.id, first, []);
    await publish(project.id);
    const v1 = (await getSite(project.id).expect(200)).body.site as {
      url: string;
    };
    const v1Page = (await fetchSite(fileUrl(v1.url))).bytes;
    expect(v1Page.toString()).toContain('Version one.');

    const second = await chosenPage(
      t,
      project.id,
      PAGE.replace('Version one.', 'Version two.'),
    );
    await keepReport(t, project.id, second, []);
    await publish(project.id);
    const v2 = (await getSite(project.id).expect(200)).body.site as {
      version: number;
    };
    expect(v2.version).toBe(2);
    // The current address shows version 2 within seconds.
    const shown = await untilBody(fileUrl(v1.url), (bytes) =>
      bytes.toString().includes('Version two.'),
    );
    expect(shown.afterMs).toBeLessThan(5000);

    const rolled = await request(t.server)
      .post(`/api/projects/${project.id}/site/rollback`)
      .send({ version: 1 })
      .expect(200);
    expect(rolled.body.site).toMatchObject({ version: 1, url: v1.url });
    // The current address shows version 1's bytes within seconds.
    const back = await untilBody(fileUrl(v1.url), (bytes) =>
      bytes.equals(v1Page),
    );
    expect(back.afterMs).toBeLessThan(5000);

    await request(t.server)
      .delete(`/api/projects/${project.id}/site`)
      .expect(204);
    const gone = await untilStatus(fileUrl(v1.url), 404);
    expect(gone.afterMs).toBeLessThan(5000);
    await getSite(project.id).expect(404);
    const again = await request(t.server)
      .delete(`/api/projects/${project.id}/site`)
      .expect(404);
    expect(again.body.code).toBe('site_not_found');

    await request(t.server)
      .post(`/api/projects/${project.id}/site/rollback`)
      .send({ version: 2 })
      .expect(200);
    await untilStatus(fileUrl(v1.url), 200);
  });

  it('refuses bad input with documented errors', async () => {
    const project = await createProject(t);
    const rollback = (id: string, body: unknown) =>
      request(t.server)
        .post(`/api/projects/${id}/site/rollback`)
        .send(body as object);
    for (const body of [
      { version: 0 },
      { version: 'x' },
      {},
      { version: 1.5 },
    ]) {
      const res = await rollback(project.id, body).expect(400);
      expect(res.body).toMatchObject({
        error: 'Invalid input',
        code: 'invalid_input',
      });
    }
    const unknownVersion = await rollback(project.id, { version: 3 }).expect(
      404,
    );
    expect(unknownVersion.body).toEqual({
      error: 'Site version not found',
      code: 'site_version_not_found',
    });
    const missing = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e99';
    for (const id of [missing, 'not-a-uuid']) {
      expect((await rollback(id, { version: 1 }).expect(404)).body.code).toBe(
        'project_not_found',
      );
      expect((await getSite(id).expect(404)).body.code).toBe(
        'project_not_found',
      );
      await request(t.server).delete(`/api/projects/${id}/site`).expect(404);
      expect(
        (await postTask(t, id, { type: 'publish' }).expect(404)).body.code,
      ).toBe('project_not_found');
    }
    const badForce = await postTask(t, project.id, {
      type: 'publish',
      input: { force: 'yes' },
    }).expect(400);
    expect(badForce.body.details[0].path).toEqual(['input', 'force']);
  });
});
