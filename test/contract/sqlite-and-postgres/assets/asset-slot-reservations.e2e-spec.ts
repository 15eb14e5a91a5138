import request from 'supertest';
import { keepLogo } from '../../../support/asset-client';
import { DevImageApi, Replies } from '../../../support/fake-image-api';
import { createProject } from '../../../support/project-fixtures';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * ASSET_MAX_PER_PROJECT under concurrency: keeps racing for a project's last
 * free slot pay the image model once, and the others are refused with the
 * full project's 409 before any upstream call. The image API (a real local
 * HTTP server) counts the calls it was paid for. Runs on SQLite and, in the
 * PostgreSQL pass, on PostgreSQL.
 */

const MAX = 20;
const FULL = {
  error: `The project already holds ${MAX} assets, the most it may; delete one first`,
  code: 'asset_limit_reached',
};

describe('Asset slots: one paid image call per free slot', () => {
  let api: DevImageApi;
  let t: TestApp;

  beforeAll(async () => {
    api = await DevImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: api.url,
      IMAGE_MODEL: 'gpt-image-2.5-sunburst',
      ASSET_MAX_PER_PROJECT: String(MAX),
    });
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });
  beforeEach(async () => {
    api.reset();
    await t.reset();
  });

  const fillTo = async (projectId: string, count: number) => {
    for (let i = 0; i < count; i++) await keepLogo(t, projectId).expect(201);
  };
  const assetCount = async (projectId: string) => {
    const { body } = await request(t.server)
      .get(`/api/projects/${projectId}`)
      .expect(200);
    return (body.project as { assets: unknown[] }).assets.length;
  };

  it('4 keeps at once at 19 of 20: one image call, one asset, three 409s', async () => {
    const project = await createProject(t);
    await fillTo(project.id, MAX - 1);
    const paidBefore = api.requests.length;
    // Every call is held long enough for the four keeps to overlap.
    api.respondWith(Replies.slow(Replies.image(), 500));
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => keepLogo(t, project.id).then((r) => r)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body).toEqual(FULL);
    }
    expect(api.requests.length - paidBefore).toBe(1);
    expect(await assetCount(project.id)).toBe(MAX);
  });

  it('a slot whose image call failed is given back: the next keep gets it', async () => {
    const project = await createProject(t);
    await fillTo(project.id, MAX - 1);
    api.respondNext(Replies.error(500, 'Simulated image API failure'));
    await keepLogo(t, project.id).expect(500);
    await keepLogo(t, project.id).expect(201);
    await keepLogo(t, project.id).expect(409);
    expect(await assetCount(project.id)).toBe(MAX);
  });
});
