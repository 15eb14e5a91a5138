import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { createHmac } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import request from 'supertest';
import { DevImageApi, Replies } from '../../../../dev-servers/image-api';
import { CapturingLogger } from '../../../support/capturing-logger';
import { DevAuthProviderProcess } from '../../../support/dev-auth-provider-process';
import { answerBeforeBody, listen } from '../../../support/pending-request';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * AUTH_MODE=oidc against a real OpenID Provider (oidc-provider, run as
 * `npm run auth:dev` runs it): every caller proven by a bearer token, and
 * each user's projects isolated from every other's. Runs on SQLite and
 * PostgreSQL.
 */

const AUDIENCE = 'workspace-api';

const ADMIN_ROLE = 'workspace-admin';
const UNAUTHORIZED = { error: 'Unauthorized', code: 'unauthorized' };
const FORBIDDEN = { error: 'Forbidden', code: 'forbidden' };

async function signingKeyPair(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('RS256', {
    extractable: true,
  });
  const jwk: JWK = {
    ...(await exportJWK(privateKey)),
    kid,
    alg: 'RS256',
    use: 'sig',
  };
  return { privateKey, publicKey, jwk };
}

const base64url = (value: unknown) =>
  Buffer.from(
    typeof value === 'string' ? value : JSON.stringify(value),
  ).toString('base64url');

describe('AUTH_MODE=oidc', () => {
  let provider: DevAuthProviderProcess;
  let providerKey: Awaited<ReturnType<typeof signingKeyPair>>;
  let t: TestApp;
  let logger: CapturingLogger;
  let imageApi: DevImageApi;
  let alice: string;
  let bob: string;
  let base: string;

  const oidcEnv = (issuer: string) => ({
    AUTH_MODE: 'oidc',
    ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
    AUTH_ISSUER: issuer,
    AUTH_AUDIENCE: AUDIENCE,
    AUTH_ADMIN_ROLE: ADMIN_ROLE,
    AUTH_JWKS_COOLDOWN_S: '0',
  });

  /** A token signed with the provider's own key, with any claims. */
  const forged = (
    claims: Record<string, unknown>,
    key: Parameters<SignJWT['sign']>[0] = providerKey.privateKey,
    kid = 'provider-key',
  ) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      sub: 'alice',
      iss: provider.issuer,
      aud: AUDIENCE,
      iat: now,
      exp: now + 600,
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid })
      .sign(key);
  };

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    providerKey = await signingKeyPair('provider-key');
    provider = await DevAuthProviderProcess.start(providerKey.jwk);
    imageApi = await DevImageApi.start({ defaultReply: Replies.success() });
    logger = new CapturingLogger();
    t = await createTestApp(
      {
        ...oidcEnv(provider.issuer),
        IMAGE_API_KEY: 'sk-oidc-test',
        IMAGE_API_URL: imageApi.url,
        LOGO_RATE_LIMIT: '1',
      },
      { logger },
    );
    base = await listen(t);
    alice = await provider.token('alice');
    bob = await provider.token('bob');
  });

  afterAll(async () => {
    await t?.close();
    await imageApi?.close();
    await provider?.stop();
  });

  const create = (token: string, body: Record<string, unknown>) =>
    request(t.server).post('/api/projects').set(as(token)).send(body);

  describe('isolation', () => {
    let aliceProject: string;
    let bobProject: string;

    beforeAll(async () => {
      await t.reset();
      aliceProject = (await create(alice, { name: 'A1' }).expect(201)).body
        .project.id;
      await create(alice, { name: 'A2', userId: 'alice' }).expect(201);
      bobProject = (await create(bob, { name: 'B1' }).expect(201)).body.project
        .id;
    });

    const storedProjects = async () =>
      t.dataSource.query<Array<{ id: string; name: string; userId: string }>>(
        'SELECT "id", "name", "userId" FROM "projects" ORDER BY "name"',
      );

    it('create without userId makes the project the caller’s; naming another user is 403 {error:"Forbidden"}', async () => {
      const res = await create(alice, { name: 'Mine' }).expect(201);
      expect(res.body.project.userId).toBe('alice');
      const refused = await create(alice, {
        name: 'For Bob',
        userId: 'bob',
      }).expect(403);
      expect(refused.body).toEqual(FORBIDDEN);
      expect(
        (await storedProjects()).filter((p) => p.name === 'For Bob'),
      ).toEqual([]);
      await request(t.server)
        .delete(`/api/projects/${res.body.project.id}`)
        .set(as(alice))
        .expect(200);
    });

    it('the list holds only the caller’s projects, paged or not; ?userId= naming someone else is 403', async () => {
      const all = await request(t.server)
        .get('/api/projects')
        .set(as(alice))
        .expect(200);
      expect(
        all.body.projects.map((p: { name: string }) => p.name).sort(),
      ).toEqual(['A1', 'A2']);
      const page = await request(t.server)
        .get('/api/projects?limit=10')
        .set(as(bob))
        .expect(200);
      expect(page.body.projects.map((p: { name: string }) => p.name)).toEqual([
        'B1',
      ]);
      await request(t.server)
        .get('/api/projects?userId=alice')
        .set(as(alice))
        .expect(200);
      const refused = await request(t.server)
        .get('/api/projects?userId=bob')
        .set(as(alice))
        .expect(403);
      expect(refused.body).toEqual(FORBIDDEN);
    });

    it('another user’s project answers exactly as an unknown id: 404 on GET, 500 on PATCH and DELETE, 412 with If-Match', async () => {
      const path = `/api/projects/${bobProject}`;
      const get = await request(t.server).get(path).set(as(alice)).expect(404);
      expect(get.body).toEqual({
        error: 'Project not found',
        code: 'project_not_found',
      });
      await request(t.server)
        .get(path)
        .set(as(alice))
        .set('If-None-Match', '"1"')
        .expect(404);
      const patch = await request(t.server)
        .patch(path)
        .set(as(alice))
        .send({ name: 'Taken' })
        .expect(500);
      expect(patch.body).toEqual({
        error: 'Failed to update project',
        code: 'project_not_found',
      });
      await request(t.server)
        .patch(path)
        .set(as(alice))
        .set('If-Match', '"1"')
        .send({ name: 'Taken' })
        .expect(412);
      const remove = await request(t.server)
        .delete(path)
        .set(as(alice))
        .expect(500);
      expect(remove.body).toEqual({
        error: 'Failed to delete project',
        code: 'project_not_found',
      });
      const bobs = (await storedProjects()).find((p) => p.id === bobProject);
      expect(bobs).toEqual({ id: bobProject, name: 'B1', userId: 'bob' });
    });

    it('the owner reads, patches and deletes as without authentication; PATCH cannot hand a project to another user', async () => {
      const path = `/api/projects/${aliceProject}`;
      await request(t.server).get(path).set(as(alice)).expect(200);
      const handOver = await request(t.server)
        .patch(path)
        .set(as(alice))
        .send({ userId: 'bob' })
        .expect(403);
      expect(handOver.body).toEqual(FORBIDDEN);
      await request(t.server)
        .patch(path)
        .set(as(alice))
        .send({ name: 'A1 renamed' })
        .expect(200);
      const stored = (await storedProjects()).find(
        (p) => p.id === aliceProject,
      );
      expect(stored).toMatchObject({ name: 'A1 renamed', userId: 'alice' });
    });

    it('an admin (AUTH_ADMIN_ROLE) lists and reads every user’s projects, but changes only their own', async () => {
      const admin = await provider.token('root', { roles: [ADMIN_ROLE] });
      const all = await request(t.server)
        .get('/api/projects')
        .set(as(admin))
        .expect(200);
      expect(all.body.projects.length).toBe(3);
      await request(t.server)
        .get(`/api/projects?userId=bob`)
        .set(as(admin))
        .expect(200);
      await request(t.server)
        .get(`/api/projects/${bobProject}`)
        .set(as(admin))
        .expect(200);
      await request(t.server)
        .patch(`/api/projects/${bobProject}`)
        .set(as(admin))
        .send({ name: 'By admin' })
        .expect(500);
    });

    it('Idempotency-Keys are scoped to the user: the same key from two users makes two projects', async () => {
      for (const token of [alice, bob]) {
        const res = await create(token, { name: 'Keyed' })
          .set('Idempotency-Key', 'same-key-two-users')
          .expect(201);
        expect(res.headers['idempotent-replayed']).toBeUndefined();
      }
    });
  });

  describe('tokens', () => {
    it('no Authorization header: 401 {error:"Unauthorized"} with WWW-Authenticate: Bearer', async () => {
      const res = await request(t.server).get('/api/projects').expect(401);
      expect(res.body).toEqual(UNAUTHORIZED);
      expect(res.headers['www-authenticate']).toBe(
        'Bearer realm="workspace-api"',
      );
    });

    it('the logo routes answer 401 in their own envelope', async () => {
      const res = await request(t.server)
        .post('/api/ai/generate-logo')
        .send({
          projectId: 'p',
          companyName: 'A',
          style: 'modern',
          colors: ['red'],
        })
        .expect(401);
      expect(res.body).toEqual({
        success: false,
        error: 'Unauthorized',
        code: 'unauthorized',
      });
      await request(t.server).get('/api/ai/generate-logo').expect(401);
    });

    it.each<[string, () => Promise<string>]>([
      ['garbage', () => Promise.resolve('not.a.token')],
      ['expired', () => forged({ exp: Math.floor(Date.now() / 1000) - 60 })],
      [
        'not yet valid (nbf)',
        () => forged({ nbf: Math.floor(Date.now() / 1000) + 600 }),
      ],
      [
        'issued in the future (iat)',
        () => forged({ iat: Math.floor(Date.now() / 1000) + 600 }),
      ],
      ['without exp', () => forged({ exp: undefined })],
      [
        'from another issuer',
        () => forged({ iss: 'https://evil.example.com' }),
      ],
      ['for another audience', () => forged({ aud: 'another-api' })],
      [
        'signed with another key under the provider’s kid',
        async () =>
          forged({}, (await signingKeyPair('x')).privateKey, 'provider-key'),
      ],
      [
        'signed with a key the provider never published (unknown kid)',
        async () => forged({}, (await signingKeyPair('x')).privateKey, 'nope'),
      ],
      [
        'alg: none',
        () =>
          Promise.resolve(
            `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({
              sub: 'alice',
              iss: provider.issuer,
              aud: AUDIENCE,
              exp: Math.floor(Date.now() / 1000) + 600,
            })}.`,
          ),
      ],
      [
        'HS256 signed with the provider’s public key as the secret',
        async () => {
          const secret = JSON.stringify(await exportJWK(providerKey.publicKey));
          const head = base64url({ alg: 'HS256', kid: 'provider-key' });
          const body = base64url({
            sub: 'alice',
            iss: provider.issuer,
            aud: AUDIENCE,
            exp: Math.floor(Date.now() / 1000) + 600,
          });
          const signature = createHmac('sha256', secret)
            .update(`${head}.${body}`)
            .digest('base64url');
          return `${head}.${body}.${signature}`;
        },
      ],
    ])(
      'a token that is %s: 401 with error="invalid_token"',
      async (_what, make) => {
        const token = await make();
        const res = await request(t.server)
          .get('/api/projects')
          .set(as(token))
          .expect(401);
        expect(res.body).toEqual(UNAUTHORIZED);
        expect(res.headers['www-authenticate']).toBe(
          'Bearer realm="workspace-api", error="invalid_token"',
        );
        expect(logger.lines.join('\n')).not.toContain(token);
      },
    );

    it('a token signed with the provider’s key and right claims is accepted, with a lower-case "bearer" too', async () => {
      await request(t.server)
        .get('/api/projects')
        .set(as(await forged({})))
        .expect(200);
      await request(t.server)
        .get('/api/projects')
        .set('Authorization', `bearer ${alice}`)
        .expect(200);
    });

    it.each([
      ['Basic credentials', 'Basic YWxpY2U6c2VjcmV0'],
      ['a scheme without a token', 'Bearer'],
      [
        'two tokens in one header',
        `Bearer ${'a'.repeat(10)} ${'b'.repeat(10)}`,
      ],
    ])('%s: 401 with error="invalid_request"', async (_what, header) => {
      const res = await request(t.server)
        .get('/api/projects')
        .set('Authorization', header)
        .expect(401);
      expect(res.headers['www-authenticate']).toContain(
        'error="invalid_request"',
      );
    });

    it('two Authorization headers: 401, even when the first is valid', async () => {
      const answer = await new Promise<IncomingMessage>((resolve, reject) => {
        httpRequest(
          `${base}/api/projects`,
          { headers: { Authorization: [`Bearer ${alice}`, `Bearer ${bob}`] } },
          (res) => {
            res.resume();
            resolve(res);
          },
        )
          .once('error', reject)
          .end();
      });
      expect(answer.statusCode).toBe(401);
      expect(answer.headers['www-authenticate']).toContain(
        'error="invalid_request"',
      );
    });

    it('health, metrics and the API documents stay open', async () => {
      await request(t.server).get('/health/live').expect(200);
      await request(t.server).get('/health/ready').expect(200);
      await request(t.server).get('/metrics').expect(200);
      await request(t.server).get('/docs-json').expect(200);
    });

    it('the logo rate limit counts per user, not per address', async () => {
      const body = {
        projectId: 'p',
        companyName: 'Acme',
        style: 'modern',
        colors: ['red'],
      };
      const carol = await provider.token('carol');
      const dave = await provider.token('dave');
      await request(t.server)
        .post('/api/ai/generate-logo')
        .set(as(carol))
        .send(body)
        .expect(200);
      await request(t.server)
        .post('/api/ai/generate-logo')
        .set(as(carol))
        .send(body)
        .expect(429);
      await request(t.server)
        .post('/api/ai/generate-logo')
        .set(as(dave))
        .send(body)
        .expect(200);
    });

    it('a verified token is remembered only until its exp: then it is refused', async () => {
      const strict = await createTestApp({
        ...oidcEnv(provider.issuer),
        AUTH_CLOCK_TOLERANCE_S: '0',
      });
      try {
        const shortLived = await forged({
          exp: Math.floor(Date.now() / 1000) + 2,
        });
        await request(strict.server)
          .get('/api/projects')
          .set(as(shortLived))
          .expect(200);
        await new Promise((resolve) => setTimeout(resolve, 3000));
        await request(strict.server)
          .get('/api/projects')
          .set(as(shortLived))
          .expect(401);
      } finally {
        await strict.close();
      }
    });

    it('another spelling of a valid token (padding, + or / of base64) is 401, so one token is one cache entry', async () => {
      const spellings = [`${alice}=`, `${alice}==`];
      const withDash = alice.indexOf('-');
      const withUnderscore = alice.indexOf('_');
      if (withDash >= 0) {
        spellings.push(
          `${alice.slice(0, withDash)}+${alice.slice(withDash + 1)}`,
        );
      }
      if (withUnderscore >= 0) {
        spellings.push(
          `${alice.slice(0, withUnderscore)}/${alice.slice(withUnderscore + 1)}`,
        );
      }
      for (const spelling of spellings) {
        const res = await request(t.server)
          .get('/api/projects')
          .set(as(spelling))
          .expect(401);
        expect(res.body).toEqual(UNAUTHORIZED);
      }
      await request(t.server).get('/api/projects').set(as(alice)).expect(200);
    });

    it.each<[string, unknown]>([
      ['a lone surrogate', 'victim\ud800'],
      ['a lone low surrogate', '\udc00victim'],
      ['NUL', 'victim\u0000'],
      ['over 255 characters', 'v'.repeat(256)],
      ['empty', ''],
      ['not a string', 42],
    ])(
      'a token whose user id has %s is 401, so it can never name another user’s projects',
      async (_label, sub) => {
        const token = await forged({ sub });
        const res = await request(t.server)
          .get('/api/projects')
          .set(as(token))
          .expect(401);
        expect(res.body).toEqual(UNAUTHORIZED);
        await request(t.server)
          .post('/api/projects')
          .set(as(token))
          .send({ name: 'P' })
          .expect(401);
      },
    );

    it('a request without a token is answered 401 before its body arrives', async () => {
      const answer = await answerBeforeBody(base, '/api/projects');
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    });

    it('never writes a token in a log line', () => {
      const lines = logger.lines.join('\n');
      for (const token of [alice, bob]) expect(lines).not.toContain(token);
      expect(lines).toContain('caller refused');
    });
  });

  describe('the provider’s keys', () => {
    it('a rotated key is picked up without a restart', async () => {
      await request(t.server).get('/api/projects').set(as(alice)).expect(200);
      const kid = await provider.rotate();
      const rotated = await provider.token('alice');
      expect(
        JSON.parse(Buffer.from(rotated.split('.')[0], 'base64url').toString())
          .kid,
      ).toBe(kid);
      await request(t.server).get('/api/projects').set(as(rotated)).expect(200);
    });

    it('while the provider is down, cached keys keep working; a key that is not cached is 503 with Retry-After; an app with no keys yet is 503', async () => {
      const known = await forged({ sub: 'erin' });
      await request(t.server).get('/api/projects').set(as(known)).expect(200);
      await provider.stop();
      try {
        await request(t.server).get('/api/projects').set(as(known)).expect(200);
        const unknownKid = await forged(
          { sub: 'erin' },
          (await signingKeyPair('y')).privateKey,
          'never-seen',
        );
        const res = await request(t.server)
          .get('/api/projects')
          .set(as(unknownKid))
          .expect(503);
        expect(res.body).toEqual({
          error: 'Authentication is temporarily unavailable',
          code: 'auth_unavailable',
        });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);

        const fresh = await createTestApp(oidcEnv(provider.issuer));
        try {
          const cold = await request(fresh.server)
            .get('/api/projects')
            .set(as(known))
            .expect(503);
          expect(cold.headers['retry-after']).toBeDefined();
          // A token that is not even a JWT needs no keys: still 401.
          await request(fresh.server)
            .get('/api/projects')
            .set(as('garbage'))
            .expect(401);
        } finally {
          await fresh.close();
        }
      } finally {
        await provider.resume();
      }
    });
  });
});

describe('AUTH_MODE=oidc configuration', () => {
  it.each([
    [{ AUTH_MODE: 'oidc', AUTH_AUDIENCE: 'a' }, /AUTH_ISSUER must be set/],
    [
      { AUTH_MODE: 'oidc', AUTH_ISSUER: 'http://127.0.0.1:1' },
      /AUTH_AUDIENCE must be set/,
    ],
    [
      {
        AUTH_MODE: 'oidc',
        ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
        AUTH_ISSUER: 'http://127.0.0.1:1',
        AUTH_AUDIENCE: 'a',
        AUTH_ALGORITHMS: 'RS256,HS256',
      },
      /AUTH_ALGORITHMS/,
    ],
    [{ AUTH_MODE: 'ldap' }, /AUTH_MODE must be none or oidc/],
  ])('refuses %j at start-up', async (env, message) => {
    await expect(createTestApp(env)).rejects.toThrow(message);
  });
});
