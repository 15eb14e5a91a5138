import { exportJWK, generateKeyPair } from 'jose';
import request from 'supertest';
import {
  getBytes,
  keepLogo,
  LOGO_REQUEST,
  pathOf,
  sha256,
  type AssetBody,
} from '../../../support/asset-client';
import { DevAuthProviderProcess } from '../../../support/dev-auth-provider-process';
import { DevImageApi } from '../../../support/fake-image-api';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Kept logos with AUTH_MODE=oidc: only the owner keeps, reads and deletes
 * a project's logos; the url in an answer is signed for that answer, so an
 * `<img>` loads it without a token, and an admin reading the project gets
 * one too. Runs on SQLite and PostgreSQL.
 */
const ADMIN_ROLE = 'workspace-admin';

describe('Kept logos with AUTH_MODE=oidc', () => {
  let provider: DevAuthProviderProcess;
  let api: DevImageApi;
  let t: TestApp;
  let alice: string;
  let bob: string;
  let admin: string;

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    const { privateKey } = await generateKeyPair('RS256', {
      extractable: true,
    });
    provider = await DevAuthProviderProcess.start({
      ...(await exportJWK(privateKey)),
      kid: 'assets-oidc',
      alg: 'RS256',
      use: 'sig',
    });
    api = await DevImageApi.start();
    t = await createTestApp({
      AUTH_MODE: 'oidc',
      AUTH_ISSUER: provider.issuer,
      AUTH_AUDIENCE: 'workspace-api',
      AUTH_ADMIN_ROLE: ADMIN_ROLE,
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: api.url,
    });
    alice = await provider.token('alice');
    bob = await provider.token('bob');
    admin = await provider.token('root', { roles: [ADMIN_ROLE] });
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
    await provider?.stop();
  });

  /** Alice's project with one kept logo. */
  async function aliceLogo(): Promise<{ projectId: string; asset: AssetBody }> {
    const created = await request(t.server)
      .post('/api/projects')
      .set(as(alice))
      .send({ name: 'Site' })
      .expect(201);
    const projectId = created.body.project.id as string;
    const kept = await keepLogo(t, projectId).set(as(alice)).expect(201);
    return { projectId, asset: kept.body.asset as AssetBody };
  }

  it('keeping needs a token (401) and a project of the caller (404 for anyone else’s)', async () => {
    const { projectId } = await aliceLogo();
    await keepLogo(t, projectId).expect(401);
    const other = await keepLogo(t, projectId).set(as(bob)).expect(404);
    expect(other.body).toEqual({
      error: 'Project not found',
      code: 'project_not_found',
    });
    // An admin reads every project but keeps logos only in their own.
    await keepLogo(t, projectId).set(as(admin)).expect(404);
  });

  it("the owner's signed url loads without any header, byte for byte", async () => {
    const { asset } = await aliceLogo();
    expect(asset.url).toMatch(
      /\/content\?expires=\d+&signature=[A-Za-z0-9_-]{43}$/,
    );
    const served = await getBytes(t, pathOf(asset.url)).expect(200);
    expect(sha256(served.body as Buffer)).toBe(asset.sha256);
    expect(served.headers['cache-control']).toMatch(
      /^private, max-age=\d+, immutable$/,
    );
  });

  it('the url without its signature, or with another, is 403', async () => {
    const { asset } = await aliceLogo();
    const bare = pathOf(asset.url).split('?')[0];
    const refused = await request(t.server).get(bare).expect(403);
    expect(refused.body).toEqual({
      error: 'This asset URL has expired or is not valid',
      code: 'asset_url_refused',
    });
    const forged = pathOf(asset.url).replace(
      /signature=./,
      (match) => `signature=${match.endsWith('A') ? 'B' : 'A'}`,
    );
    await request(t.server).get(forged).expect(403);
  });

  it('another user can neither read nor delete the asset; an admin reads the project and gets a working url', async () => {
    const { projectId, asset } = await aliceLogo();
    const path = `/api/projects/${projectId}/assets/${asset.id}`;
    await request(t.server).get(path).set(as(bob)).expect(404);
    await request(t.server)
      .get(`/api/projects/${projectId}`)
      .set(as(bob))
      .expect(404);
    await request(t.server).delete(path).set(as(bob)).expect(404);
    const read = await request(t.server)
      .get(`/api/projects/${projectId}`)
      .set(as(admin))
      .expect(200);
    const shown = read.body.project.assets as AssetBody[];
    const served = await getBytes(t, pathOf(shown[0].url)).expect(200);
    expect(sha256(served.body as Buffer)).toBe(asset.sha256);
    await request(t.server).delete(path).set(as(alice)).expect(200);
  });

  it("a project with assets is tagged with its urls' expiry: a revalidation gets 304 only while they work", async () => {
    const { projectId } = await aliceLogo();
    const first = await request(t.server)
      .get(`/api/projects/${projectId}`)
      .set(as(alice))
      .expect(200);
    expect(first.headers.etag).toMatch(/^"\d+\.\d+"$/);
    await request(t.server)
      .get(`/api/projects/${projectId}`)
      .set(as(alice))
      .set('If-None-Match', first.headers.etag)
      .expect(304);
    // The version alone no longer names the answer.
    const version = first.headers.etag.split('.')[0] + '"';
    await request(t.server)
      .get(`/api/projects/${projectId}`)
      .set(as(alice))
      .set('If-None-Match', version)
      .expect(200);
    // The tag still guards a change.
    await request(t.server)
      .patch(`/api/projects/${projectId}`)
      .set(as(alice))
      .set('If-Match', first.headers.etag)
      .send({ name: 'Renamed' })
      .expect(200);
  });

  it("an Idempotency-Key is per user: another user's request with the same key is not a replay of the first", async () => {
    const { projectId } = await aliceLogo();
    const send = (token: string) =>
      request(t.server)
        .post(`/api/projects/${projectId}/logos`)
        .set(as(token))
        .set('Idempotency-Key', 'same-key')
        .send(LOGO_REQUEST);
    await send(alice).expect(201);
    await send(bob).expect(404);
    await send(alice).expect(201).expect('Idempotent-Replayed', 'true');
  });
});
