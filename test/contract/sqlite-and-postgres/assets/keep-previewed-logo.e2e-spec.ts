import request from 'supertest';
import {
  getBytes,
  LOGO_REQUEST,
  pathOf,
  sha256,
  type AssetBody,
} from '../../../support/asset-client';
import { DevImageApi } from '../../../support/fake-image-api';
import {
  ASSET_STORES,
  startAssetStore,
  type AssetStoreUnderTest,
} from '../../../support/asset-stores';
import { createProject } from '../../../support/project-fixtures';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Keeping the logo a user previewed: POST /api/projects/{id}/logos with
 * `{logoUrl}` (a logo POST /api/ai/generate-logo answered, hosted here)
 * keeps exactly those bytes without calling the image model again. Runs on
 * SQLite and PostgreSQL, with the bytes in the database and in a real
 * S3-protocol server.
 */
describe.each(ASSET_STORES)(
  'Keeping a previewed logo (ASSET_STORE=%s)',
  (kind) => {
    let api: DevImageApi;
    let store: AssetStoreUnderTest;
    let t: TestApp;

    beforeAll(async () => {
      api = await DevImageApi.start();
      store = await startAssetStore(kind);
      t = await createTestApp({
        IMAGE_API_KEY: 'sk-previewed-logo-test-key',
        IMAGE_API_URL: api.url,
        // GPT image models answer the image itself: the service hosts it.
        IMAGE_MODEL: 'gpt-image-2.5-sunburst',
        ASSET_MAX_PER_PROJECT: '2',
        // Every answer's URLs under one origin, as in production.
        PUBLIC_BASE_URL: 'https://api.example.com',
        ...store.env,
      });
    });
    afterAll(async () => {
      await t?.close();
      await store?.close();
      await api?.close();
    });
    beforeEach(async () => {
      api.reset();
      await t.reset();
      await store.reset();
    });

    /** A preview: POST /api/ai/generate-logo's logoUrl. */
    const preview = async (projectId: string): Promise<string> => {
      const response = await request(t.server)
        .post('/api/ai/generate-logo')
        .send({ projectId, ...LOGO_REQUEST })
        .expect(200);
      return (response.body as { logoUrl: string }).logoUrl;
    };
    const keep = (projectId: string, body: object, key?: string) => {
      const call = request(t.server)
        .post(`/api/projects/${projectId}/logos`)
        .send(body);
      return key ? call.set('Idempotency-Key', key) : call;
    };

    it('keeps exactly the previewed bytes with no call to the image model', async () => {
      const project = await createProject(t);
      const logoUrl = await preview(project.id);
      const previewed = (await getBytes(t, pathOf(logoUrl)).expect(200))
        .body as Buffer;
      expect(api.requests).toHaveLength(1);

      const response = await keep(project.id, { logoUrl }).expect(201);
      const { asset } = response.body as { asset: AssetBody };
      expect(api.requests).toHaveLength(1);
      expect(asset).toMatchObject({
        projectId: project.id,
        kind: 'logo',
        contentType: 'image/png',
        byteSize: previewed.length,
        sha256: sha256(previewed),
        prompt: expect.stringContaining('Acme Rockets'),
        model: 'gpt-image-2.5-sunburst',
      });
      const kept = (await getBytes(t, pathOf(asset.url)).expect(200))
        .body as Buffer;
      expect(kept.equals(previewed)).toBe(true);
    });

    it('takes the URL as its path too', async () => {
      const project = await createProject(t);
      const logoUrl = await preview(project.id);
      const { asset } = (
        await keep(project.id, { logoUrl: pathOf(logoUrl) }).expect(201)
      ).body as { asset: AssetBody };
      expect(asset.projectId).toBe(project.id);
      expect(api.requests).toHaveLength(1);
    });

    it("answers the project's new ETag, which the next conditional PATCH may send", async () => {
      const project = await createProject(t);
      const logoUrl = await preview(project.id);
      const kept = await keep(project.id, { logoUrl }).expect(201);
      const etag = kept.headers.etag;
      expect(etag).toMatch(/^"\d+"$/);
      const read = await request(t.server)
        .get(`/api/projects/${project.id}`)
        .expect(200);
      expect(read.headers.etag).toBe(etag);
      await request(t.server)
        .patch(`/api/projects/${project.id}`)
        .set('If-Match', etag)
        .send({ name: 'Renamed' })
        .expect(200);
    });

    it('shows _count on the detail, as the list does', async () => {
      const project = await createProject(t);
      await keep(project.id, { logoUrl: await preview(project.id) }).expect(
        201,
      );
      const read = await request(t.server)
        .get(`/api/projects/${project.id}`)
        .expect(200);
      expect(
        (read.body as { project: { _count: unknown } }).project._count,
      ).toEqual({
        tasks: 0,
        assets: 1,
      });
    });

    it.each([
      [
        'another origin',
        (url: string) =>
          url.replace(/^https?:\/\/[^/]+/, 'https://images.example.com'),
      ],
      [
        'a protocol-relative URL to another host',
        (url: string) =>
          url.replace(/^https?:\/\/[^/]+/, '//images.example.com'),
      ],
      ['a query', (url: string) => `${url}?size=32`],
      ['a fragment', (url: string) => `${url}#x`],
      [
        'another path of this service',
        (url: string) => url.replace('/api/ai/logos/', '/api/ai/other/'),
      ],
      [
        'a file name that is not a logo id',
        (url: string) => url.replace(/[0-9a-f]{32}/, '..%2F..%2Fetc'),
      ],
      [
        'a relative path without its leading slash',
        (url: string) => pathOf(url).slice(1),
      ],
    ])('refuses %s with 400 and calls nothing', async (_, change) => {
      const project = await createProject(t);
      const logoUrl = change(await preview(project.id));
      const response = await keep(project.id, { logoUrl }).expect(400);
      expect(response.body).toMatchObject({
        error: 'Invalid input',
        details: [expect.objectContaining({ path: ['logoUrl'] })],
      });
      expect(api.requests).toHaveLength(1);
    });

    it('refuses a logoUrl that is not a string with 400', async () => {
      const project = await createProject(t);
      const response = await keep(project.id, { logoUrl: 42 }).expect(400);
      expect(response.body).toMatchObject({
        error: 'Invalid input',
        details: [expect.objectContaining({ path: ['logoUrl'] })],
      });
    });

    it('answers 404 {error:"Logo not found"} once the preview has expired', async () => {
      const project = await createProject(t);
      const logoUrl = await preview(project.id);
      await t.dataSource.query('UPDATE "stored_images" SET "expiresAt" = 0');
      const response = await keep(project.id, { logoUrl }).expect(404);
      expect(response.body).toEqual({
        error: 'Logo not found',
        code: 'logo_not_found',
      });
      expect(api.requests).toHaveLength(1);
      const read = await request(t.server)
        .get(`/api/projects/${project.id}`)
        .expect(200);
      expect(
        (read.body as { project: { assets: unknown[] } }).project.assets,
      ).toEqual([]);
    });

    it('answers 404 for an unknown project and 409 when the project is full, before reading the logo', async () => {
      const project = await createProject(t);
      const logoUrl = await preview(project.id);
      await request(t.server)
        .post('/api/projects/019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e99/logos')
        .send({ logoUrl })
        .expect(404, { error: 'Project not found', code: 'project_not_found' });
      await keep(project.id, { logoUrl }).expect(201);
      await keep(project.id, { logoUrl }).expect(201);
      const full = await keep(project.id, { logoUrl }).expect(409);
      expect((full.body as { error: string }).error).toMatch(
        /already holds 2 assets/,
      );
      expect(api.requests).toHaveLength(1);
    });

    it('with an Idempotency-Key a retry replays the answer and keeps one asset', async () => {
      const project = await createProject(t);
      const logoUrl = await preview(project.id);
      const first = await keep(
        project.id,
        { logoUrl },
        'keep-previewed-1',
      ).expect(201);
      const again = await keep(
        project.id,
        { logoUrl },
        'keep-previewed-1',
      ).expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(again.headers.etag).toBe(first.headers.etag);
      const read = await request(t.server)
        .get(`/api/projects/${project.id}`)
        .expect(200);
      expect(
        (read.body as { project: { assets: unknown[] } }).project.assets,
      ).toHaveLength(1);
    });
  },
);
