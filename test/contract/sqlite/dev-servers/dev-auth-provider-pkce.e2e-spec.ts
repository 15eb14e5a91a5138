import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import {
  DevAuthProvider,
  SPA_CLIENT_ID,
} from '../../../../dev-servers/auth-provider/dev-auth-provider';

/**
 * The dev OpenID Provider's sign-in for single-page apps: authorization
 * code with PKCE (S256), run with fetch as a browser page would.
 */
describe('dev OpenID Provider: authorization code with PKCE', () => {
  let provider: DevAuthProvider;
  const redirectUri = 'http://127.0.0.1:5173/callback';
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  beforeAll(async () => {
    provider = await DevAuthProvider.start({
      corsOrigins: ['http://127.0.0.1:5173'],
    });
  });
  afterAll(() => provider.close());

  const authorize = async (
    user?: string,
    extra: Record<string, string> = {},
  ) => {
    const url = new URL('/authorize', provider.issuer);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: SPA_CLIENT_ID,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'xyz',
      scope: 'openid',
      ...(user ? { login_hint: user } : {}),
      ...extra,
    }).toString();
    return fetch(url, { redirect: 'manual' });
  };
  const codeFor = async (user: string, extra: Record<string, string> = {}) => {
    const answer = await authorize(user, extra);
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('xyz');
    return back.searchParams.get('code') ?? '';
  };
  const exchange = (code: string, codeVerifier: string) =>
    fetch(new URL('/token', provider.issuer), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'http://127.0.0.1:5173',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: SPA_CLIENT_ID,
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      }),
    });

  it('lists the sign-in in its discovery document', async () => {
    const document = (await (
      await fetch(new URL('/.well-known/openid-configuration', provider.issuer))
    ).json()) as Record<string, unknown>;
    expect(document.authorization_endpoint).toBe(
      `${provider.issuer}/authorize`,
    );
    expect(document.token_endpoint).toBe(`${provider.issuer}/token`);
    expect(document.code_challenge_methods_supported).toEqual(['S256']);
    expect(document.grant_types_supported).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    expect(document.userinfo_endpoint).toBe(`${provider.issuer}/userinfo`);
    expect(document.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'profile', 'email', 'offline_access']),
    );
  });

  it('exchanges a code with its verifier for the access token the service verifies, once', async () => {
    const code = await codeFor('alice');
    const answer = await exchange(code, verifier);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(
      'http://127.0.0.1:5173',
    );
    const body = (await answer.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const claims = decodeJwt(String(body.access_token));
    expect(claims).toMatchObject({
      sub: 'alice',
      aud: provider.audience,
      iss: provider.issuer,
    });
    const again = await exchange(code, verifier);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: 'invalid_grant' });
  });

  it('refuses a code with a wrong verifier: 400 invalid_grant', async () => {
    const code = await codeFor('bob');
    const answer = await exchange(code, randomBytes(32).toString('base64url'));
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: 'invalid_grant' });
  });

  it('asks for a user name without login_hint, and refuses a plain challenge', async () => {
    const form = await authorize();
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('name="login_hint"');
    const url = new URL('/authorize', provider.issuer);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: SPA_CLIENT_ID,
      redirect_uri: redirectUri,
      code_challenge: verifier,
      code_challenge_method: 'plain',
      login_hint: 'alice',
    }).toString();
    const plain = await fetch(url, { redirect: 'manual' });
    expect(plain.status).toBe(400);
  });
  const refresh = (refreshToken: string, scope?: string) =>
    fetch(new URL('/token', provider.issuer), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'http://127.0.0.1:5173',
      },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: SPA_CLIENT_ID,
        ...(scope === undefined ? {} : { scope }),
      }),
    });

  describe('what an OpenID Connect client library needs (oidc-client-ts)', () => {
    const signIn = async (user: string, scope: string) => {
      const code = await codeFor(user, { scope, nonce: `n-${user}` });
      const answer = await exchange(code, verifier);
      expect(answer.status).toBe(200);
      return (await answer.json()) as Record<string, string>;
    };

    it('answers an ID token with the nonce, the profile and email of the scopes, and a refresh token', async () => {
      const tokens = await signIn('carol', 'openid profile email');
      expect(tokens.scope).toBe('openid profile email');
      expect(tokens.refresh_token).toEqual(expect.any(String));
      const idToken = decodeJwt(tokens.id_token);
      expect(idToken).toMatchObject({
        iss: provider.issuer,
        aud: SPA_CLIENT_ID,
        sub: 'carol',
        nonce: 'n-carol',
        name: 'carol',
        email: 'carol@example.test',
        auth_time: expect.any(Number),
      });
      // The access token is the service's, with the same profile.
      expect(decodeJwt(tokens.access_token)).toMatchObject({
        sub: 'carol',
        aud: provider.audience,
        name: 'carol',
        email: 'carol@example.test',
      });
    });

    it('grants only the scopes it knows, and no ID token without openid', async () => {
      const tokens = await signIn('dan', 'api offline_access');
      expect(tokens.scope).toBe('offline_access');
      expect(tokens.id_token).toBeUndefined();
      expect(tokens.refresh_token).toEqual(expect.any(String));
    });

    it('refreshes once per refresh token: new access, ID and refresh tokens for the same sign-in; the used one is then invalid_grant', async () => {
      const tokens = await signIn('erin', 'openid profile');
      const answer = await refresh(tokens.refresh_token, 'openid profile');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe(
        'http://127.0.0.1:5173',
      );
      const renewed = (await answer.json()) as Record<string, string>;
      expect(renewed.refresh_token).not.toBe(tokens.refresh_token);
      expect(decodeJwt(renewed.access_token).sub).toBe('erin');
      const first = decodeJwt(tokens.id_token);
      const again = decodeJwt(renewed.id_token);
      expect(again).toMatchObject({ sub: 'erin', auth_time: first.auth_time });
      expect(again.nonce).toBeUndefined();
      const reused = await refresh(tokens.refresh_token);
      expect(reused.status).toBe(400);
      expect(await reused.json()).toEqual({ error: 'invalid_grant' });
      const wider = await refresh(renewed.refresh_token, 'openid email');
      expect(wider.status).toBe(400);
      expect(await wider.json()).toEqual({ error: 'invalid_scope' });
    });

    it('serves UserInfo for its access tokens (401 without one)', async () => {
      const tokens = await signIn('fay', 'openid email');
      const info = await fetch(new URL('/userinfo', provider.issuer), {
        headers: { Authorization: `Bearer ${tokens.access_token}` },
      });
      expect(info.status).toBe(200);
      expect(await info.json()).toEqual({
        sub: 'fay',
        email: 'fay@example.test',
        email_verified: true,
      });
      const anonymous = await fetch(new URL('/userinfo', provider.issuer));
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toContain(
        'invalid_token',
      );
    });
  });
});
