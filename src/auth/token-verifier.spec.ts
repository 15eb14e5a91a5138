import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OidcConfig } from './auth.config';
import { TokenVerifier } from './token-verifier';

const ISSUER = 'http://issuer.test';
const AUDIENCE = 'workspace-api';

describe('TokenVerifier: the verified-token cache', () => {
  let jwks: Server;
  let config: OidcConfig;
  let sign: (
    sub: string,
    expiresInSeconds: number,
    extra?: Record<string, unknown>,
  ) => Promise<string>;

  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' };
    jwks = createServer((_request, response) => {
      response.setHeader('Content-Type', 'application/json');
      response.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    config = {
      mode: 'oidc',
      issuer: ISSUER,
      audience: AUDIENCE,
      jwksUrl: `http://127.0.0.1:${port}/jwks`,
      algorithms: ['RS256'],
      clockToleranceSeconds: 0,
      userClaim: 'sub',
      adminRole: undefined,
      rolesClaim: 'roles',
      jwksCooldownSeconds: 30,
    };
    sign = (sub, expiresInSeconds, extra = {}) =>
      new SignJWT(extra)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
        .sign(privateKey);
  });

  afterAll(async () => {
    await new Promise((resolve) => jwks.close(resolve));
  });

  // Each verifier's sweep timer is unref'd: it does not keep Jest alive.
  const verifier = (cacheBytes?: number) =>
    new TokenVerifier(config, cacheBytes);

  it('counts the entry of a 6 KB token as the same size as that of a short one (a digest and the caller are kept, not the text)', async () => {
    const short = verifier();
    await short.verify(await sign('alice', 3600));
    const long = verifier();
    await long.verify(await sign('alice', 3600, { pad: 'x'.repeat(6000) }));
    expect(long.cacheSize).toEqual(short.cacheSize);
    expect(long.cacheSize.entries).toBe(1);
  });

  it('never holds more than its byte budget, forgetting the oldest tokens first', async () => {
    const budget = 1_000;
    const cache = verifier(budget);
    for (let i = 0; i < 20; i++) {
      await cache.verify(await sign(`user-${i}`, 3600));
      expect(cache.cacheSize.bytes).toBeLessThanOrEqual(budget);
    }
    expect(cache.cacheSize.entries).toBeGreaterThan(0);
    expect(cache.cacheSize.entries).toBeLessThan(20);
  });

  it('sweeps out the tokens that have expired, and keeps the others', async () => {
    const cache = verifier();
    await cache.verify(await sign('soon', 60));
    await cache.verify(await sign('later', 3600));
    cache.sweep(Date.now() + 120_000);
    expect(cache.cacheSize.entries).toBe(1);
  });
});
