import request from 'supertest';
import { pixelBombPng } from '../../../../dev-servers/image-api/pixel-bomb-png';
import { ImageBlobStore } from '../../../../src/image-store/image-blob-store';
import { keepLogo, LOGO_REQUEST } from '../../../support/asset-client';
import { DevImageApi, Replies } from '../../../support/fake-image-api';
import { createProject } from '../../../support/project-fixtures';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * What an image API answers is checked before anything is hosted, kept or
 * passed on: an image whose header claims more than IMAGE_MAX_PIXELS (a
 * ~12 KB PNG claiming 50,000×50,000) is refused before it is stored, and an
 * image URL is passed on as logoUrl only when it is https to a public host
 * or of IMAGE_API_URL's own origin. Runs on SQLite and PostgreSQL.
 */
const GENERATE = '/api/ai/generate-logo';
const body = { projectId: 'p1', ...LOGO_REQUEST };

const countRows = async (t: TestApp, table: string) => {
  const [row] = await t.dataSource.query<Array<{ n: number | string }>>(
    `SELECT COUNT(*) AS "n" FROM "${table}"`,
  );
  return Number(row.n);
};

describe('Images answered by the image API are checked before they are kept', () => {
  let api: DevImageApi;
  let t: TestApp;

  beforeAll(async () => {
    api = await DevImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-image-checks-test-key',
      IMAGE_API_URL: api.url,
      // GPT image models answer the image itself: the service hosts it.
      IMAGE_MODEL: 'gpt-image-2.5-sunburst',
      IMAGE_API_MAX_RETRIES: '0',
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

  it('answers 500 "Invalid response from image service" with code upstream_invalid_answer for a PNG claiming 50,000x50,000, and hosts nothing', async () => {
    api.respondNext(Replies.pixelBomb());
    const response = await request(t.server).post(GENERATE).send(body);
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      success: false,
      error:
        'Invalid response from image service: image larger than IMAGE_MAX_PIXELS',
      code: 'upstream_invalid_answer',
    });
    expect(await countRows(t, 'stored_images')).toBe(0);
  });

  it('refuses to keep a PNG claiming 50,000x50,000 for a project: 500 upstream_invalid_answer, no asset, no stored image', async () => {
    const project = await createProject(t);
    api.respondNext(Replies.pixelBomb());
    const response = await keepLogo(t, project.id).expect(500);
    expect(response.body).toEqual({
      error:
        'Invalid response from image service: image larger than IMAGE_MAX_PIXELS',
      code: 'upstream_invalid_answer',
    });
    expect(await countRows(t, 'assets')).toBe(0);
    expect(await countRows(t, 'stored_images')).toBe(0);
  });

  it('does not keep a preview hosted before sizes were checked whose PNG claims 50,000x50,000: 404 logo_not_found, no asset', async () => {
    // As a logo hosted by an earlier version would sit in the store.
    const stored = await t.app
      .get(ImageBlobStore)
      .put(pixelBombPng(), 'image/png', Date.now() + 60_000);
    const project = await createProject(t);
    const response = await request(t.server)
      .post(`/api/projects/${project.id}/logos`)
      .send({ logoUrl: `/api/ai/logos/${stored.id}.png` })
      .expect(404);
    expect(response.body).toMatchObject({ code: 'logo_not_found' });
    expect(await countRows(t, 'assets')).toBe(0);
  });

  it('still hosts and keeps the 1024x1024 logos the models draw', async () => {
    const hosted = await request(t.server).post(GENERATE).send(body);
    expect(hosted.status).toBe(200);
    const project = await createProject(t);
    await keepLogo(t, project.id).expect(201);
    expect(await countRows(t, 'assets')).toBe(1);
  });
});

describe.each([
  ['javascript:', 'javascript:alert(document.domain)'],
  ['data:text/html', 'data:text/html,<script>alert(1)</script>'],
  ['link-local metadata', 'https://169.254.169.254/latest/meta-data/'],
  ['metadata in decimal', 'https://2852039166/latest/meta-data/'],
  ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/logo.png'],
  ['localhost', 'https://localhost/logo.png'],
  ['a private address', 'https://10.0.0.7/logo.png'],
  ['plain http', 'http://images.example.com/logo.png'],
])('An upstream image URL (%s)', (_name, url) => {
  let api: DevImageApi;
  let t: TestApp;

  beforeAll(async () => {
    api = await DevImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-image-url-test-key',
      IMAGE_API_URL: api.url,
      IMAGE_API_MAX_RETRIES: '0',
    });
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });

  it('is never passed on as logoUrl: 500 "Invalid response from image service" instead', async () => {
    api.respondNext(Replies.success(url));
    const response = await request(t.server).post(GENERATE).send(body);
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      success: false,
      error:
        'Invalid response from image service: image URL not https to a public host',
      code: 'upstream_invalid_answer',
    });
    expect(JSON.stringify(response.body)).not.toContain(url);
  });
});

describe('Upstream image URLs that are passed on', () => {
  let api: DevImageApi;
  let t: TestApp;

  beforeAll(async () => {
    api = await DevImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-image-url-test-key',
      IMAGE_API_URL: api.url,
    });
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });

  it('passes on an https URL to a public host as it is', async () => {
    const url = 'https://images.example.test/generated/logo.png';
    api.respondNext(Replies.success(url));
    const response = await request(t.server).post(GENERATE).send(body);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, logoUrl: url });
  });

  it("passes on a URL of IMAGE_API_URL's own origin (a local image API), which the operator chose", async () => {
    const response = await request(t.server).post(GENERATE).send(body);
    expect(response.status).toBe(200);
    const { logoUrl } = response.body as { logoUrl: string };
    expect(new URL(logoUrl).origin).toBe(new URL(api.url).origin);
  });
});
