import { decodeJwt, exportJWK, generateKeyPair } from 'jose';
import { DevAuthProviderProcess } from '../../../support/dev-auth-provider-process';
import {
  OidcSignInPage,
  SPA_CLIENT_ID,
  type SignInSettings,
} from '../../../support/oidc-sign-in-page';
import { listen } from '../../../support/pending-request';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * A single-page app on another origin signs in as frontends do, with
 * oidc-client-ts's UserManager, unchanged, against the dev OpenID Provider
 * (`npm run auth:dev`): authorization code with PKCE through the
 * provider's sign-in page, the ID token's nonce checked by the library,
 * UserInfo read, then GET /api/me with the access token (AUTH_MODE=oidc,
 * CORS_ORIGINS = the page's origin), and a refresh with the refresh token.
 */
describe('signing in with oidc-client-ts from a page on another origin (headless Chromium)', () => {
  let page: OidcSignInPage;
  let provider: DevAuthProviderProcess;
  let t: TestApp;
  let api: string;
  let settings: SignInSettings;

  beforeAll(async () => {
    page = await OidcSignInPage.open();
    const { privateKey } = await generateKeyPair('RS256', {
      extractable: true,
    });
    provider = await DevAuthProviderProcess.start(
      {
        ...(await exportJWK(privateKey)),
        kid: 'oidc-client-ts',
        alg: 'RS256',
        use: 'sig',
      },
      { CORS_ORIGINS: page.origin },
    );
    t = await createTestApp({
      AUTH_MODE: 'oidc',
      AUTH_ISSUER: provider.issuer,
      AUTH_AUDIENCE: 'workspace-api',
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
      CORS_ORIGINS: page.origin,
    });
    api = await listen(t);
    settings = {
      authority: provider.issuer,
      client_id: SPA_CLIENT_ID,
      scope: 'openid profile email',
      loadUserInfo: true,
    };
  }, 60_000);
  afterAll(async () => {
    await page?.close();
    await t?.close();
    await provider?.stop();
  });

  it('signs in through the provider’s page, calls GET /api/me with the access token, and refreshes with the refresh token', async () => {
    const user = await page.signIn(settings, 'alice', 'nonce-of-this-page');
    expect(user.profile).toMatchObject({
      sub: 'alice',
      name: 'alice',
      email: 'alice@example.test',
    });
    expect(decodeJwt(user.id_token ?? '')).toMatchObject({
      nonce: 'nonce-of-this-page',
      aud: SPA_CLIENT_ID,
    });
    expect(user.refresh_token).toEqual(expect.any(String));

    const me = await page.fetchJson(`${api}/api/me`, {
      headers: { Authorization: `Bearer ${user.access_token}` },
    });
    expect(me).toEqual({
      status: 200,
      body: {
        authenticated: true,
        userId: 'alice',
        name: 'alice',
        email: 'alice@example.test',
        roles: [],
        admin: false,
      },
    });

    const refreshed = await page.refresh();
    expect(refreshed.access_token).not.toBe(user.access_token);
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(refreshed.refresh_token).not.toBe(user.refresh_token);
    expect(refreshed.profile.sub).toBe('alice');
    const again = await page.fetchJson(`${api}/api/me`, {
      headers: { Authorization: `Bearer ${refreshed.access_token}` },
    });
    expect(again.status).toBe(200);
    expect((again.body as { userId: string }).userId).toBe('alice');
  });

  it('without a token, GET /api/me is 401 for the page, with WWW-Authenticate readable cross-origin', async () => {
    const answer = await page.browser.page.evaluate(async (url) => {
      const response = await fetch(url);
      return {
        status: response.status,
        challenge: response.headers.get('WWW-Authenticate'),
      };
    }, `${api}/api/me`);
    expect(answer.status).toBe(401);
    expect(answer.challenge).toContain('Bearer');
  });
});
