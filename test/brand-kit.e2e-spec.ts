import { exportJWK, generateKeyPair } from 'jose';
import sharp from 'sharp';
import request from 'supertest';
import {
  getBytes,
  keepLogo,
  pathOf,
  sha256,
  type AssetBody,
} from './support/asset-client';
import { DevAuthProviderProcess } from './support/dev-auth-provider-process';
import { DevImageApi } from './support/fake-image-api';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Renditions of kept logos (GET …/content?size=N): a square PNG of that
 * size, made once from the kept bytes and then read from storage, under the
 * same URL rules as the asset. The logos come from the dev image API; no
 * rendition calls it. Runs on SQLite and PostgreSQL.
 */

/** asset_renditions_made_total as /metrics reports it. */
async function renditionsMade(t: TestApp): Promise<number> {
  const { text } = await request(t.server).get('/metrics').expect(200);
  const line = text
    .split('\n')
    .find((row) => row.startsWith('asset_renditions_made_total '));
  return Number(line?.split(' ')[1]);
}

describe('Asset renditions', () => {
  let api: DevImageApi;
  let t: TestApp;

  beforeAll(async () => {
    api = await DevImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: api.url,
    });
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });

  async function keptLogo(): Promise<AssetBody> {
    const created = await request(t.server)
      .post('/api/projects')
      .send({ name: 'Renditions', userId: 'user-1' })
      .expect(201);
    const kept = await keepLogo(t, created.body.project.id as string).expect(
      201,
    );
    return kept.body.asset as AssetBody;
  }

  it('size=32 answers a 32×32 PNG, made once: the second request reads the stored one', async () => {
    const asset = await keptLogo();
    const callsBefore = api.requests.length;
    const madeBefore = await renditionsMade(t);
    const first = await getBytes(t, `${pathOf(asset.url)}?size=32`).expect(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(first.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 32, 32]);
    expect(first.headers.etag).toBe(`"${sha256(first.body as Buffer)}"`);
    expect(await renditionsMade(t)).toBe(madeBefore + 1);

    const second = await getBytes(t, `${pathOf(asset.url)}?size=32`).expect(
      200,
    );
    expect(sha256(second.body as Buffer)).toBe(sha256(first.body as Buffer));
    expect(await renditionsMade(t)).toBe(madeBefore + 1);
    await request(t.server)
      .get(`${pathOf(asset.url)}?size=32`)
      .set('If-None-Match', first.headers.etag)
      .expect(304);
    // The kept bytes are untouched, and the image model was not asked again.
    const original = await getBytes(t, pathOf(asset.url)).expect(200);
    expect(sha256(original.body as Buffer)).toBe(asset.sha256);
    expect(api.requests.length).toBe(callsBefore);
  });

  it('a size that is not an integer from 16 to 1024 is invalid input (400)', async () => {
    const asset = await keptLogo();
    for (const size of ['15', '1025', '32.5', 'big']) {
      const res = await request(t.server)
        .get(`${pathOf(asset.url)}?size=${size}`)
        .expect(400);
      expect(res.body.error).toBe('Invalid input');
      expect(res.body.details[0].path).toEqual(['size']);
    }
  });

  it('renditions go with their asset', async () => {
    const asset = await keptLogo();
    await getBytes(t, `${pathOf(asset.url)}?size=64`).expect(200);
    await request(t.server)
      .delete(`/api/projects/${asset.projectId}/assets/${asset.id}`)
      .expect((res) => expect([200, 204]).toContain(res.status));
    await request(t.server)
      .get(`${pathOf(asset.url)}?size=64`)
      .expect(404);
  });
});

describe('Asset renditions with AUTH_MODE=oidc', () => {
  let provider: DevAuthProviderProcess;
  let api: DevImageApi;
  let t: TestApp;
  let alice: string;

  beforeAll(async () => {
    const { privateKey } = await generateKeyPair('RS256', {
      extractable: true,
    });
    provider = await DevAuthProviderProcess.start({
      ...(await exportJWK(privateKey)),
      kid: 'renditions-oidc',
      alg: 'RS256',
      use: 'sig',
    });
    api = await DevImageApi.start();
    t = await createTestApp({
      AUTH_MODE: 'oidc',
      AUTH_ISSUER: provider.issuer,
      AUTH_AUDIENCE: 'workspace-api',
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: api.url,
    });
    alice = await provider.token('alice');
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
    await provider?.stop();
  });

  it('a size needs the signed URL as the asset does (403 without it)', async () => {
    const created = await request(t.server)
      .post('/api/projects')
      .set({ Authorization: `Bearer ${alice}` })
      .send({ name: 'Signed' })
      .expect(201);
    const kept = await keepLogo(t, created.body.project.id as string)
      .set({ Authorization: `Bearer ${alice}` })
      .expect(201);
    const asset = kept.body.asset as AssetBody;
    const signed = new URL(asset.url);
    const unsigned = `${signed.pathname}?size=32`;
    const refused = await request(t.server).get(unsigned).expect(403);
    expect(refused.body).toEqual({
      error: 'This asset URL has expired or is not valid',
    });
    const res = await getBytes(t, `${pathOf(asset.url)}&size=32`).expect(200);
    const meta = await sharp(res.body as Buffer).metadata();
    expect([meta.width, meta.height]).toEqual([32, 32]);
    expect(res.headers['cache-control']).toMatch(
      /^private, max-age=\d+, immutable$/,
    );
  });
});
