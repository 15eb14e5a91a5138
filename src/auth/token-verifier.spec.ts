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
  describe('the caller a token proves: roles, name and email for GET /api/me', () => {
    it('takes the roles of AUTH_ROLES_CLAIM, the name and the email, and the admin role from the roles', async () => {
      const admin = new TokenVerifier({ ...config, adminRole: 'boss' });
      const caller = await admin.verify(
        await sign('alice', 3600, {
          roles: ['editor', 'boss', 42],
          name: 'Alice Martin',
          email: 'alice@example.com',
        }),
      );
      expect(caller).toMatchObject({
        userId: 'alice',
        admin: true,
        roles: ['editor', 'boss'],
        name: 'Alice Martin',
        email: 'alice@example.com',
      });
    });

    it('reads roles given as one space-separated string, and through a dotted claim path', async () => {
      const spaced = await verifier().verify(
        await sign('bob', 3600, { roles: 'a b' }),
      );
      expect(spaced.roles).toEqual(['a', 'b']);
      const nested = new TokenVerifier({
        ...config,
        rolesClaim: 'realm_access.roles',
      });
      const keycloak = await nested.verify(
        await sign('carol', 3600, { realm_access: { roles: ['r1'] } }),
      );
      expect(keycloak.roles).toEqual(['r1']);
    });

    it('leaves out a name or email that is not usable text, keeps at most 100 roles, and still accepts the token', async () => {
      const caller = await verifier().verify(
        await sign('dave', 3600, {
          name: 'x'.repeat(257),
          email: 42,
          roles: Array.from({ length: 150 }, (_, i) => `r${i}`),
        }),
      );
      expect(caller.userId).toBe('dave');
      expect(caller.name).toBeUndefined();
      expect(caller.email).toBeUndefined();
      expect(caller.roles).toHaveLength(100);
      expect(caller.admin).toBe(false);
    });

    it('counts the profile in the cache entry, so a budget bounds callers with long names too', async () => {
      const plain = verifier();
      await plain.verify(await sign('erin', 3600));
      const named = verifier();
      await named.verify(
        await sign('erin', 3600, { name: 'E'.repeat(200), roles: ['a'] }),
      );
      expect(named.cacheSize.bytes).toBeGreaterThan(plain.cacheSize.bytes);
    });
  });
});
