import request from 'supertest';
import { DevTextApi } from '../../../../dev-servers/text-api';
import {
  readSiteReport,
  type SiteReport,
} from '../../../../src/site-check/site-report';
import { getBytes, pathOf } from '../../../support/asset-client';
import {
  ASSET_STORES,
  startAssetStore,
  type AssetStoreUnderTest,
} from '../../../support/asset-stores';
import { createProject } from '../../../support/project-fixtures';
import {
  agentOf,
  postTask,
  readProject,
  sectionOf,
  startTask,
  waitForTask,
} from '../../../support/task-client';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * `site-check` tasks end to end through the HTTP API: a landing page the
 * code model (the dev text API) wrote badly is checked without any model
 * call, its report kept in TESTING; a landing page's fix from that report
 * keeps a new page, which checks clean; the inputs refused at creation.
 * On SQLite and PostgreSQL, with both asset stores.
 */

/** What a careless model writes: an image without alt, an external script and stylesheet, no lang. */
const BAD_PAGE = [
  '<!doctype html>',
  '<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
  '<meta name="description" content="A bad page."><title>Bad page</title>',
  '<link rel="stylesheet" href="https://cdn.example.com/site.css">',
  '</head><body><header><h1>Bad page</h1></header><main>',
  '<img src="data:image/png;base64,iVBORw0KGgo=" width="10" height="10">',
  '<p>Welcome.</p></main>',
  '<script src="https://cdn.example.com/app.js"></script>',
  '</body></html>',
].join('\n');

interface KeptAsset {
  id: string;
  kind: string;
  contentType: string;
  fileName: string;
  sectionId: string;
  url: string;
  prompt: string;
}

describe.each(ASSET_STORES)('Site-check tasks (ASSET_STORE=%s)', (kind) => {
  let texts: DevTextApi;
  let store: AssetStoreUnderTest;
  let t: TestApp;

  beforeAll(async () => {
    texts = await DevTextApi.start();
    store = await startAssetStore(kind);
    t = await createTestApp({
      ...store.env,
      TEXT_API_URL: texts.url,
      TEXT_API_KEY: 'sk-text',
      TEXT_API_MAX_ATTEMPTS: '1',
      TASK_MAX_ATTEMPTS: '2',
      TASK_RETRY_DELAY_MS: '50',
    });
  });
  afterAll(async () => {
    await t?.close();
    await store?.close();
    await texts?.close();
  });
  beforeEach(async () => {
    texts.requests.length = 0;
    await t.reset();
    await store.reset();
  });

  const runToEnd = async (projectId: string, body: unknown) => {
    const task = await startTask(t, projectId, body);
    return waitForTask(t, projectId, task.id);
  };
  const assetOf = async (projectId: string, id: string) => {
    const state = await readProject(t, projectId);
    return (state.assets as unknown as KeptAsset[]).find(
      (asset) => asset.id === id,
    )!;
  };
  const bytesOf = async (projectId: string, id: string) => {
    const asset = await assetOf(projectId, id);
    return (await getBytes(t, pathOf(asset.url)).expect(200)).body as Buffer;
  };
  const choose = async (projectId: string, assetId: string) => {
    const state = await readProject(t, projectId);
    await request(t.server)
      .put(
        `/api/projects/${projectId}/sections/${sectionOf(state, 'CODE').id}/selection`,
      )
      .send({ assetId })
      .expect(200);
  };
  const rulesOf = (report: SiteReport, severity = 'error') =>
    new Set(
      report.findings.filter((f) => f.severity === severity).map((f) => f.rule),
    );

  it('a bad page gets image-alt, external-request and html-lang errors in a report kept in TESTING, without any model call', async () => {
    const project = await createProject(t, { name: 'Quiet Harbor' });
    texts.replyNext({ kind: 'answer', content: BAD_PAGE });
    const page = await runToEnd(project.id, { type: 'landing-page' });
    expect(page).toMatchObject({ status: 'SUCCEEDED' });
    const calls = texts.requests.length;

    const check = await runToEnd(project.id, {
      type: 'site-check',
      input: { assetId: page.assetIds[0] },
    });
    expect(check).toMatchObject({
      status: 'SUCCEEDED',
      attempts: 1,
      input: { assetId: page.assetIds[0] },
      progress: { done: 1, total: 1 },
    });
    expect(texts.requests).toHaveLength(calls);
    const state = await readProject(t, project.id);
    expect(check.agentId).toBe(agentOf(state, 'CODE').id);
    expect(check.sectionId).toBe(sectionOf(state, 'TESTING').id);
    expect(sectionOf(state, 'TESTING').status).toBe('REVIEW');
    const asset = await assetOf(project.id, check.assetIds[0]);
    expect(asset).toMatchObject({
      kind: 'site-report',
      contentType: 'application/json',
      fileName: 'site-report.json',
      sectionId: sectionOf(state, 'TESTING').id,
    });

    const bytes = await bytesOf(project.id, asset.id);
    const report = readSiteReport(bytes)!;
    expect(Object.keys(JSON.parse(bytes.toString('utf8'))).sort()).toEqual(
      [
        'assetId',
        'checkedAt',
        'counts',
        'findings',
        'passed',
        'score',
        'summary',
      ].sort(),
    );
    expect(report).toMatchObject({
      assetId: page.assetIds[0],
      passed: false,
      counts: {
        error: expect.any(Number),
        warning: expect.any(Number),
        info: expect.any(Number),
      },
    });
    expect(Date.parse(report.checkedAt)).not.toBeNaN();
    const errors = rulesOf(report);
    expect(errors).toEqual(
      new Set([...errors, 'image-alt', 'external-request', 'html-lang']),
    );
    const external = report.findings.filter(
      (f) => f.rule === 'external-request',
    );
    expect(external.map((f) => f.selector).sort()).toEqual([
      'html > body > script',
      'html > head > link',
    ]);
    expect(report.findings.find((f) => f.rule === 'image-alt')).toMatchObject({
      severity: 'error',
      selector: expect.stringContaining('img'),
    });
    expect(report.counts.error).toBe(
      report.findings.filter((f) => f.severity === 'error').length,
    );
    expect(report.score).toBe(
      Math.max(0, 100 - 10 * report.counts.error - 3 * report.counts.warning),
    );
    const lines = report.summary.split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.length).toBeLessThanOrEqual(6);
  });

  it("a landing page's fix sends the page and its findings, keeps a new page, and the chosen new page checks clean", async () => {
    const project = await createProject(t, { name: 'Quiet Harbor' });
    texts.replyNext({ kind: 'answer', content: BAD_PAGE });
    const bad = await runToEnd(project.id, { type: 'landing-page' });
    await choose(project.id, bad.assetIds[0]);
    // Without assetId: the CODE section's chosen page, stored in the input.
    const check = await runToEnd(project.id, { type: 'site-check' });
    expect(check).toMatchObject({
      status: 'SUCCEEDED',
      input: { assetId: bad.assetIds[0] },
    });

    texts.requests.length = 0;
    const fix = await runToEnd(project.id, {
      type: 'landing-page',
      input: { fixReportId: check.assetIds[0] },
    });
    expect(fix).toMatchObject({
      status: 'SUCCEEDED',
      input: { fixReportId: check.assetIds[0] },
    });
    expect(fix.assetIds[0]).not.toBe(bad.assetIds[0]);
    expect(texts.requests).toHaveLength(1);
    const sent = texts.requests[0].body as unknown as {
      messages: Array<{ role: string; content: string }>;
    };
    const user = sent.messages.find((m) => m.role === 'user')!.content;
    expect(user).toContain('Name: Quiet Harbor');
    expect(user).toContain('https://cdn.example.com/app.js');
    expect(user).toMatch(/\[error\] image-alt at [^\n]*img/);
    expect(user).toMatch(/\[error\] html-lang/);
    expect(user).toMatch(/\[error\] external-request/);
    const fixed = await assetOf(project.id, fix.assetIds[0]);
    expect(fixed).toMatchObject({
      kind: 'landing-page',
      contentType: 'text/html',
    });
    // Its prompt names the page it corrected rather than holding it again.
    expect(fixed.prompt).toContain(
      `The page: landing page ${bad.assetIds[0]} (`,
    );
    expect(fixed.prompt).toContain('[error] image-alt');
    expect(fixed.prompt).not.toContain('<link rel="stylesheet"');

    await choose(project.id, fix.assetIds[0]);
    const again = await runToEnd(project.id, { type: 'site-check' });
    expect(again).toMatchObject({
      status: 'SUCCEEDED',
      input: { assetId: fix.assetIds[0] },
    });
    const report = readSiteReport(
      await bytesOf(project.id, again.assetIds[0]),
    )!;
    expect(report).toMatchObject({ assetId: fix.assetIds[0], passed: true });
    const rules = new Set(report.findings.map((f) => f.rule));
    for (const gone of ['image-alt', 'external-request', 'html-lang'])
      expect(rules.has(gone)).toBe(false);
    expect(report.counts.error).toBe(0);
  });

  it('refuses, at creation, a page that is not a landing page of the project and a fix from what is not a report', async () => {
    const project = await createProject(t);
    const other = await createProject(t, { name: 'Other' });
    const copy = await runToEnd(project.id, { type: 'marketing-copy' });
    const page = await runToEnd(project.id, { type: 'landing-page' });
    const otherPage = await runToEnd(other.id, { type: 'landing-page' });
    const unknown = '019aa8f4-1c2d-7e3f-8a4b-5c6d7e8f9a0b';
    const refused = async (body: unknown, field: string) => {
      const answer = await postTask(t, project.id, body).expect(400);
      expect(answer.body).toMatchObject({
        error: 'Invalid input',
        code: 'invalid_input',
      });
      expect(JSON.stringify(answer.body)).toContain(field);
      expect(JSON.stringify(answer.body)).not.toMatch(/at .*\.ts|SELECT/);
    };
    for (const assetId of [
      unknown,
      copy.assetIds[0],
      otherPage.assetIds[0],
      'not-a-uuid',
      7,
    ])
      await refused({ type: 'site-check', input: { assetId } }, 'assetId');
    for (const fixReportId of [unknown, page.assetIds[0], 'nope'])
      await refused(
        { type: 'landing-page', input: { fixReportId } },
        'fixReportId',
      );
    const tasks = (await readProject(t, project.id)).tasks;
    expect(tasks.filter((task) => task.type === 'site-check')).toHaveLength(0);
  });

  it('refuses a site check with 409 nothing_chosen when no page is named and none is chosen', async () => {
    const project = await createProject(t);
    await runToEnd(project.id, { type: 'landing-page' });
    const answer = await postTask(t, project.id, { type: 'site-check' }).expect(
      409,
    );
    expect(answer.body).toMatchObject({
      code: 'nothing_chosen',
      error: expect.stringContaining('no chosen landing page'),
    });
    expect(sectionOf(await readProject(t, project.id), 'TESTING').status).toBe(
      'PENDING',
    );
  });

  it('the dev code model’s own page passes the check with no error', async () => {
    const project = await createProject(t, { name: 'Quiet Harbor' });
    const page = await runToEnd(project.id, { type: 'landing-page' });
    const check = await runToEnd(project.id, {
      type: 'site-check',
      input: { assetId: page.assetIds[0] },
    });
    const report = readSiteReport(
      await bytesOf(project.id, check.assetIds[0]),
    )!;
    expect(report.findings).toEqual([]);
    expect(report).toMatchObject({ passed: true, score: 100 });
  });
});
