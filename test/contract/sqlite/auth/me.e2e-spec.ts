import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * GET /api/me: the caller as the verified token tells it with
 * AUTH_MODE=oidc, and the anonymous caller without authentication.
 */

const ISSUER = 'http://issuer.test';
const AUDIENCE = 'workspace-api';

describe('GET /api/me without authentication (AUTH_MODE=none)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('answers the anonymous caller: not authenticated, no user id, no roles, never cached', async () => {
    const answer = await request(t.server).get('/api/me').expect(200);
    expect(answer.body).toEqual({
      authenticated: false,
      userId: null,
      roles: [],
      admin: false,
    });
    expect(answer.headers['cache-control']).toBe('private, no-store');
  });
});

describe('GET /api/me with AUTH_MODE=oidc', () => {
  let jwks: Server;
  let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  let t: TestApp;

  const sign = (claims: Record<string, unknown>, sub = 'alice') =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'me-1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    const jwk = {
      ...(await exportJWK(pair.publicKey)),
      kid: 'me-1',
      alg: 'RS256',
    };
    jwks = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    jwks.listen(0, '127.0.0.1');
    await once(jwks, 'listening');
    t = await createTestApp({
      AUTH_MODE: 'oidc',
      AUTH_ISSUER: ISSUER,
      AUTH_AUDIENCE: AUDIENCE,
      AUTH_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`,
      AUTH_ADMIN_ROLE: 'workspace-admin',
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
    });
  });
  afterAll(async () => {
    await t?.close();
    jwks?.close();
  });

  it("answers the token's user id, name, email and roles, and whether one is the admin role", async () => {
    const token = await sign({
      name: 'Alice Martin',
      email: 'alice@example.com',
      roles: ['workspace-admin', 'editor'],
    });
    const answer = await request(t.server)
      .get('/api/me')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(answer.body).toEqual({
      authenticated: true,
      userId: 'alice',
      name: 'Alice Martin',
      email: 'alice@example.com',
      roles: ['workspace-admin', 'editor'],
      admin: true,
    });
  });

  it('leaves out name and email when the token carries none', async () => {
    const token = await sign({}, 'bob');
    const answer = await request(t.server)
      .get('/api/me')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(answer.body).toEqual({
      authenticated: true,
      userId: 'bob',
      roles: [],
      admin: false,
    });
  });

  it('is 401 without a token, as every route', async () => {
    const answer = await request(t.server).get('/api/me').expect(401);
    expect(answer.body).toEqual({
      error: 'Unauthorized',
      code: 'unauthorized',
    });
  });
});
