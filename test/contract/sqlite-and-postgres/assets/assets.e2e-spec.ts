import request from 'supertest';
import {
  PNG_SIGNATURE,
  pngHeader,
} from '../../../../dev-servers/image-api/png-encoder';
import {
  getBytes,
  keepLogo,
  LOGO_REQUEST,
  pathOf,
  sha256,
  type AssetBody,
} from '../../../support/asset-client';
import { DevImageApi, Replies } from '../../../support/fake-image-api';
import {
  ASSET_STORES,
  startAssetStore,
  type AssetStoreUnderTest,
} from '../../../support/asset-stores';
import { createProject } from '../../../support/project-fixtures';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Kept logos (POST /api/projects/{id}/logos): generated through the image
 * API, stored as assets of the project's LOGO section, shown where the
 * project shows assets, served by their url, deleted alone or with their
 * project. Runs on SQLite and PostgreSQL, with the bytes in the database
 * and in a real S3-protocol server.
 */
const ASSET_URL =
  /^http:\/\/127\.0\.0\.1:\d+\/api\/projects\/[0-9a-f-]{36}\/assets\/[0-9a-f-]{36}\/content$/;

/** A small real PNG (1x1, opaque red). */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

const countOf = async (t: TestApp, table: string) => {
  const [row] = await t.dataSource.query<Array<{ n: number | string }>>(
    `SELECT COUNT(*) AS "n" FROM "${table}"`,
  );
  return Number(row.n);
};

describe.each(ASSET_STORES)('Kept logos (ASSET_STORE=%s)', (kind) => {
  let api: DevImageApi;
  let store: AssetStoreUnderTest;
  let t: TestApp;

  beforeAll(async () => {
    api = await DevImageApi.start();
    store = await startAssetStore(kind);
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: api.url,
      ASSET_MAX_PER_PROJECT: '3',
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

  it('answers 201 {asset} with every field and a Location, asking the image model for base64', async () => {
    const project = await createProject(t);
    const response = await keepLogo(t, project.id).expect(201);
    const asset = (response.body as { asset: AssetBody }).asset;
    const logoSection = project.sections.find((s) => s.type === 'LOGO')!;
    expect(response.body).toEqual({
      asset: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        projectId: project.id,
        sectionId: logoSection.id,
        kind: 'logo',
        contentType: 'image/png',
        byteSize: expect.any(Number),
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        url: expect.stringMatching(ASSET_URL),
        prompt: expect.stringContaining('Acme Rockets'),
        model: 'dall-e-3',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        fileName: `logo-${asset.id.slice(-8)}.png`,
        width: 1024,
        height: 1024,
        thumbnailUrl: `${asset.url}?size=128`,
      },
    });
    expect(response.headers.location).toBe(
      new URL(
        `/api/projects/${project.id}/assets/${asset.id}`,
        response.request.url,
      ).href,
    );
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0].body).toMatchObject({
      model: 'dall-e-3',
      response_format: 'b64_json',
    });
  });

  it('serves the exact bytes at its url, with their type, sha256 ETag, nosniff and a long Cache-Control', async () => {
    const project = await createProject(t);
    api.respondNext(Replies.base64(TINY_PNG));
    const { asset } = (await keepLogo(t, project.id).expect(201)).body as {
      asset: AssetBody;
    };
    expect(asset.byteSize).toBe(TINY_PNG.length);
    expect(asset.sha256).toBe(sha256(TINY_PNG));
    const served = await getBytes(t, pathOf(asset.url)).expect(200);
    expect((served.body as Buffer).equals(TINY_PNG)).toBe(true);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-length']).toBe(String(TINY_PNG.length));
    expect(served.headers.etag).toBe(`"${asset.sha256}"`);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
    await request(t.server)
      .get(pathOf(asset.url))
      .set('If-None-Match', `"${asset.sha256}"`)
      .expect(304);
  });

  it('a drawn logo of a few hundred KB loads byte for byte and matches its sha256', async () => {
    const project = await createProject(t);
    const { asset } = (await keepLogo(t, project.id).expect(201)).body as {
      asset: AssetBody;
    };
    const served = await getBytes(t, pathOf(asset.url)).expect(200);
    const bytes = served.body as Buffer;
    expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(bytes.length).toBe(asset.byteSize);
    expect(sha256(bytes)).toBe(asset.sha256);
  });

  it('bytes of several MB, over many stored parts, come back whole', async () => {
    const project = await createProject(t);
    const big = Buffer.concat([
      pngHeader(1024, 1024),
      Buffer.alloc(3 * 1024 * 1024 + 123, 0xab),
    ]);
    api.respondNext(Replies.base64(big));
    const { asset } = (await keepLogo(t, project.id).expect(201)).body as {
      asset: AssetBody;
    };
    const served = await getBytes(t, pathOf(asset.url)).expect(200);
    expect((served.body as Buffer).equals(big)).toBe(true);
  });

  it('logos kept at the same moment on one project all land, up to the limit', async () => {
    const project = await createProject(t);
    const answers = await Promise.all(
      [1, 2, 3].map(() => keepLogo(t, project.id).then((r) => r)),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    const { body } = await request(t.server)
      .get(`/api/projects/${project.id}`)
      .expect(200);
    expect(body.project.assets).toHaveLength(3);
  });

  it('an asset whose bytes were lost answers 404 at its url, never a broken 200', async () => {
    const project = await createProject(t);
    const { asset } = (await keepLogo(t, project.id).expect(201)).body as {
      asset: AssetBody;
    };
    await store.dropBytes(t, asset.id);
    const response = await request(t.server).get(pathOf(asset.url)).expect(404);
    expect(response.body).toEqual({
      error: 'Asset not found',
      code: 'asset_not_found',
    });
  });

  it("shows in the project's LOGO section and assets, and counts in the list's _count.assets", async () => {
    const project = await createProject(t);
    const { asset } = (await keepLogo(t, project.id).expect(201)).body as {
      asset: AssetBody;
    };
    const { body } = await request(t.server)
      .get(`/api/projects/${project.id}`)
      .expect(200);
    const shown = body.project as {
      sections: Array<{ type: string; assets: AssetBody[] }>;
      assets: AssetBody[];
    };
    // supertest reaches the app on a new port per request: the origin of
    // a url follows the request's Host, the rest must match.
    const same = (a: AssetBody) => ({
      ...a,
      url: pathOf(a.url),
      thumbnailUrl: a.thumbnailUrl && pathOf(a.thumbnailUrl),
    });
    expect(shown.assets.map(same)).toEqual([same(asset)]);
    expect(
      shown.sections.find((s) => s.type === 'LOGO')!.assets.map(same),
    ).toEqual([same(asset)]);
    for (const section of shown.sections.filter((s) => s.type !== 'LOGO')) {
      expect(section.assets).toEqual([]);
    }
    const list = await request(t.server).get('/api/projects').expect(200);
    expect(list.body.projects[0]._count).toEqual({ tasks: 0, assets: 1 });
    const one = await request(t.server)
      .get(`/api/projects/${project.id}/assets/${asset.id}`)
      .expect(200);
    expect(same(one.body.asset as AssetBody)).toEqual(same(asset));
  });

  it("moves the project's ETag on, so a cached copy of the project is not reused", async () => {
    const project = await createProject(t);
    const before = await request(t.server)
      .get(`/api/projects/${project.id}`)
      .expect(200);
    await keepLogo(t, project.id).expect(201);
    const after = await request(t.server)
      .get(`/api/projects/${project.id}`)
      .set('If-None-Match', before.headers.etag)
      .expect(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body.project.assets).toHaveLength(1);
  });

  it('an unknown project is 404 {error:"Project not found"} before the image model is called', async () => {
    for (const id of ['019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20', 'nope']) {
      const response = await keepLogo(t, id).expect(404);
      expect(response.body).toEqual({
        error: 'Project not found',
        code: 'project_not_found',
      });
    }
    expect(api.requests).toHaveLength(0);
  });

  it('invalid input is 400 {error, details} like the project routes, and nothing is called or kept', async () => {
    const project = await createProject(t);
    const response = await keepLogo(t, project.id, {
      ...LOGO_REQUEST,
      style: 'baroque',
    }).expect(400);
    expect(response.body).toEqual({
      error: 'Invalid input',
      details: [expect.objectContaining({ path: ['style'] })],
      code: 'invalid_input',
    });
    expect(api.requests).toHaveLength(0);
    expect(await countOf(t, 'assets')).toBe(0);
  });

  it("an upstream failure is the logo route's words in {error}, and nothing is kept", async () => {
    const project = await createProject(t);
    api.respondNext(Replies.error(400, 'Your prompt was rejected'));
    const response = await keepLogo(t, project.id).expect(500);
    expect(response.body).toEqual({
      error: 'Your prompt was rejected',
      code: 'upstream_refused',
    });
    expect(await countOf(t, 'assets')).toBe(0);
  });

  it('bytes that are not a PNG, JPEG or WebP are refused, and nothing is kept', async () => {
    const project = await createProject(t);
    api.respondNext(Replies.base64(Buffer.from('<svg xmlns="x"/>')));
    const response = await keepLogo(t, project.id).expect(500);
    expect(response.body).toEqual({
      error: expect.any(String),
      code: 'upstream_invalid_answer',
    });
    expect(await countOf(t, 'assets')).toBe(0);
    expect(await store.storedCount(t)).toBe(0);
  });

  it('a retry with the same Idempotency-Key neither pays twice nor keeps twice', async () => {
    const project = await createProject(t);
    const send = () =>
      request(t.server)
        .post(`/api/projects/${project.id}/logos`)
        .set('Idempotency-Key', 'keep-1')
        .send(LOGO_REQUEST)
        .expect(201);
    const first = await send();
    const second = await send();
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    // A replay's Location is built for the request that replays it (here
    // another port of 127.0.0.1): the same path.
    expect(new URL(String(second.headers.location)).pathname).toBe(
      new URL(String(first.headers.location)).pathname,
    );
    expect(api.requests).toHaveLength(1);
    expect(await countOf(t, 'assets')).toBe(1);
    expect(await store.storedCount(t)).toBe(1);
  });

  it('a project at ASSET_MAX_PER_PROJECT is 409 without calling the image model', async () => {
    const project = await createProject(t);
    for (let i = 0; i < 3; i++) await keepLogo(t, project.id).expect(201);
    const response = await keepLogo(t, project.id).expect(409);
    expect(response.body).toEqual({
      error:
        'The project already holds 3 assets, the most it may; delete one first',
      code: 'asset_limit_reached',
    });
    expect(api.requests).toHaveLength(3);
  });

  it('DELETE of an asset answers {success:true}; its url, its row and its bytes are gone', async () => {
    const project = await createProject(t);
    const { asset } = (await keepLogo(t, project.id).expect(201)).body as {
      asset: AssetBody;
    };
    const path = `/api/projects/${project.id}/assets/${asset.id}`;
    const deleted = await request(t.server).delete(path).expect(200);
    expect(deleted.body).toEqual({ success: true });
    const gone = await request(t.server).get(pathOf(asset.url)).expect(404);
    expect(gone.body).toEqual({
      error: 'Asset not found',
      code: 'asset_not_found',
    });
    await request(t.server).get(path).expect(404);
    await request(t.server).delete(path).expect(404);
    const { body } = await request(t.server)
      .get(`/api/projects/${project.id}`)
      .expect(200);
    expect(body.project.assets).toEqual([]);
    expect(await store.storedCount(t)).toBe(0);
  });

  it('DELETE with If-Match deletes only while the project is at that ETag (412 otherwise)', async () => {
    const project = await createProject(t);
    const { asset } = (await keepLogo(t, project.id).expect(201)).body as {
      asset: AssetBody;
    };
    const path = `/api/projects/${project.id}/assets/${asset.id}`;
    const stale = await request(t.server)
      .delete(path)
      .set('If-Match', '"1"')
      .expect(412);
    expect(stale.body).toEqual({
      error: 'Precondition failed',
      code: 'precondition_failed',
    });
    const current = await request(t.server)
      .get(`/api/projects/${project.id}`)
      .expect(200);
    await request(t.server)
      .delete(path)
      .set('If-Match', current.headers.etag)
      .expect(200);
    expect(await countOf(t, 'assets')).toBe(0);
  });

  it('deleting the project removes its assets and their bytes', async () => {
    const project = await createProject(t);
    const { asset } = (await keepLogo(t, project.id).expect(201)).body as {
      asset: AssetBody;
    };
    await request(t.server).delete(`/api/projects/${project.id}`).expect(200);
    expect(await countOf(t, 'assets')).toBe(0);
    expect(await store.storedCount(t)).toBe(0);
    await request(t.server).get(pathOf(asset.url)).expect(404);
  });

  it('a project deleted while its logo is drawn gets no asset: 404, and no bytes are left behind', async () => {
    const project = await createProject(t);
    api.respondNext(Replies.slow(Replies.base64(TINY_PNG), 500));
    const keeping = keepLogo(t, project.id).then((response) => response);
    // Once the image model has the request, the project goes.
    while (api.requests.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await request(t.server).delete(`/api/projects/${project.id}`).expect(200);
    const response = await keeping;
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      error: 'Project not found',
      code: 'project_not_found',
    });
    expect(await countOf(t, 'assets')).toBe(0);
    expect(await store.storedCount(t)).toBe(0);
  });
});
