import { exportJWK, generateKeyPair } from 'jose';
import { PNG_SIZE } from '../../../../dev-servers/image-api/logo-png';
import { LOGO_REQUEST, type AssetBody } from '../../../support/asset-client';
import { CrossOriginPage } from '../../../support/cross-origin-page';
import { DevAuthProviderProcess } from '../../../support/dev-auth-provider-process';
import { DevImageApi } from '../../../support/fake-image-api';
import { listen } from '../../../support/pending-request';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Kept logos shown by a frontend on another origin, in headless Chromium:
 * the page keeps a logo through the API (fetch, CORS) and shows its url in
 * an <img>, which sends no Authorization header and no Origin check a
 * server could rely on. Without authentication the url is stable and
 * loads; with AUTH_MODE=oidc only the signed url the API answered loads,
 * and a url with its signature altered or removed does not.
 */

const SIGNING_KEY = 'a-test-signing-key-of-at-least-32-chars';
const AUDIENCE = 'workspace-api';

interface ProjectBody {
  id: string;
  sections: Array<{ type: string; assets: AssetBody[] }>;
  assets: AssetBody[];
}

/** The same url with one query parameter replaced, or removed if null. */
const withQuery = (url: string, name: string, value: string | null) => {
  const parsed = new URL(url);
  if (value === null) parsed.searchParams.delete(name);
  else parsed.searchParams.set(name, value);
  return parsed.toString();
};

/** Another valid-looking signature: the first character changed. */
const tampered = (signature: string) =>
  `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;

describe('kept logos in an <img> on another origin (headless Chromium)', () => {
  let browser: CrossOriginPage;
  let imageApi: DevImageApi;

  beforeAll(async () => {
    browser = await CrossOriginPage.open();
    // The dev image API draws a real PNG for each kept logo.
    imageApi = await DevImageApi.start();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await imageApi?.close();
  });

  describe('AUTH_MODE=none', () => {
    let t: TestApp;
    let api: string;

    beforeAll(async () => {
      t = await createTestApp({
        AUTH_MODE: 'none',
        CORS_ORIGINS: browser.origin,
        IMAGE_API_KEY: 'sk-assets-browser',
        IMAGE_API_URL: imageApi.url,
      });
      api = await listen(t);
    }, 60_000);

    afterAll(async () => {
      await t?.close();
    });

    it('keeps a logo with fetch from the page and shows its url in an <img>', async () => {
      const json = { 'Content-Type': 'application/json' };
      const created = await browser.fetchJson(`${api}/api/projects`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          name: 'Shown on another origin',
          userId: 'user-1',
        }),
      });
      expect(created.status).toBe(201);
      const { id } = (created.body as { project: { id: string } }).project;

      const kept = await browser.fetchJson(`${api}/api/projects/${id}/logos`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(LOGO_REQUEST),
      });
      expect(kept.status).toBe(201);
      const { asset } = kept.body as { asset: AssetBody };
      // Stable and unsigned: nothing in the query.
      expect(asset.url).toBe(
        `${api}/api/projects/${id}/assets/${asset.id}/content`,
      );

      const shown = await browser.showImage(asset.url);
      expect(shown.failure).toBeNull();
      expect(shown.response?.status()).toBe(200);
      expect(shown.response?.headers()['content-type']).toBe('image/png');
      expect(shown.response?.headers()['etag']).toBe(`"${asset.sha256}"`);
      expect(shown).toMatchObject({
        loaded: true,
        naturalWidth: PNG_SIZE,
        naturalHeight: PNG_SIZE,
      });
    }, 60_000);
  });

  describe('AUTH_MODE=oidc (signed urls)', () => {
    let provider: DevAuthProviderProcess;
    let t: TestApp;
    let api: string;
    let project: ProjectBody;
    let signedUrl: string;

    beforeAll(async () => {
      const { privateKey } = await generateKeyPair('RS256', {
        extractable: true,
      });
      provider = await DevAuthProviderProcess.start({
        ...(await exportJWK(privateKey)),
        kid: 'assets-browser',
        alg: 'RS256',
        use: 'sig',
      });
      t = await createTestApp({
        AUTH_MODE: 'oidc',
        AUTH_ISSUER: provider.issuer,
        AUTH_AUDIENCE: AUDIENCE,
        ASSET_URL_SIGNING_KEY: SIGNING_KEY,
        CORS_ORIGINS: browser.origin,
        IMAGE_API_KEY: 'sk-assets-browser',
        IMAGE_API_URL: imageApi.url,
      });
      api = await listen(t);

      // Alice's page keeps a logo, then reads it back with her project.
      const alice = {
        Authorization: `Bearer ${await provider.token('alice')}`,
      };
      const json = { ...alice, 'Content-Type': 'application/json' };
      const created = await browser.fetchJson(`${api}/api/projects`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Signed logos' }),
      });
      expect(created.status).toBe(201);
      const { id } = (created.body as { project: { id: string } }).project;
      const kept = await browser.fetchJson(`${api}/api/projects/${id}/logos`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(LOGO_REQUEST),
      });
      expect(kept.status).toBe(201);
      const read = await browser.fetchJson(`${api}/api/projects/${id}`, {
        headers: alice,
      });
      expect(read.status).toBe(200);
      project = (read.body as { project: ProjectBody }).project;
      const logos = project.sections.find((s) => s.type === 'LOGO')!.assets;
      expect(logos.map((logo) => logo.id)).toEqual([
        (kept.body as { asset: AssetBody }).asset.id,
      ]);
      signedUrl = logos[0].url;
    }, 90_000);

    afterAll(async () => {
      await t?.close();
      await provider?.stop();
    });

    it("answers the project with a signed url of the logo's bytes", () => {
      const [asset] = project.assets;
      expect(signedUrl).toMatch(
        new RegExp(
          `^${api}/api/projects/${project.id}/assets/${asset.id}/content\\?expires=\\d+&signature=[A-Za-z0-9_-]{43}$`,
        ),
      );
    });

    it('shows the signed url in an <img>, which sends no Authorization header', async () => {
      const shown = await browser.showImage(signedUrl);
      expect(shown.sentHeaders.authorization).toBeUndefined();
      expect(shown.sentHeaders.cookie).toBeUndefined();
      expect(shown.failure).toBeNull();
      expect(shown.response?.status()).toBe(200);
      expect(shown.response?.headers()['cache-control']).toMatch(
        /^private, max-age=\d+, immutable$/,
      );
      expect(shown).toMatchObject({
        loaded: true,
        naturalWidth: PNG_SIZE,
        naturalHeight: PNG_SIZE,
      });
    });

    it.each<[string, (url: string) => string]>([
      [
        'its signature altered',
        (url) =>
          withQuery(
            url,
            'signature',
            tampered(new URL(url).searchParams.get('signature')!),
          ),
      ],
      [
        'its expiry altered',
        (url) =>
          withQuery(
            url,
            'expires',
            String(Number(new URL(url).searchParams.get('expires')) - 1),
          ),
      ],
      [
        'no signature or expiry',
        (url) => withQuery(withQuery(url, 'signature', null), 'expires', null),
      ],
    ])('does not show the url with %s (403)', async (_case, change) => {
      const url = change(signedUrl);
      expect(url).not.toBe(signedUrl);
      const shown = await browser.showImage(url);
      expect(shown).toMatchObject({
        loaded: false,
        naturalWidth: 0,
        naturalHeight: 0,
      });
      // The browser hides a JSON error from an <img> (opaque-response
      // blocking), so what the service answered is read outside it.
      const answered = await fetch(url);
      expect(answered.status).toBe(403);
      expect(await answered.json()).toEqual({
        error: 'This asset URL has expired or is not valid',
        code: expect.any(String),
      });
    });

    it("answers 404 to another user's token for the asset's JSON route", async () => {
      const [asset] = project.assets;
      const bob = await provider.token('bob');
      const path = `${api}/api/projects/${project.id}/assets/${asset.id}`;
      const answer = await browser.fetchJson(path, {
        headers: { Authorization: `Bearer ${bob}` },
      });
      expect(answer.status).toBe(404);
      // The same route answers its owner: the 404 is about who asks.
      const alice = await provider.token('alice');
      const own = await browser.fetchJson(path, {
        headers: { Authorization: `Bearer ${alice}` },
      });
      expect(own.status).toBe(200);
      expect((own.body as { asset: AssetBody }).asset.id).toBe(asset.id);
    });
  });
});
