import fc from 'fast-check';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import {
  answerProblems,
  isAssetOperation,
  OPERATIONS,
  type Answer,
  type Operation,
} from '../../support/answer-contract';
import { CapturingLogger } from '../../support/capturing-logger';
import { DevAuthProviderProcess } from '../../support/dev-auth-provider-process';
import { FakeImageApi, Replies } from '../../support/fake-image-api';
import { HttpClient } from '../../support/http-client';
import { listen } from '../../support/pending-request';
import {
  byScale,
  recordReliability,
  reliabilitySeed,
} from '../../support/reliability';
import { createTestApp, type TestApp } from '../../support/test-app';
import { assertProperty } from '../assert-property';
import { AssetPool, FUZZ_PNG, type ResolvedRequest } from '../fuzz-asset-pool';
import { MINTED_QUERY } from '../fuzz-asset-requests';
import { requestArbitrary, type FuzzRequest } from '../fuzz-requests';

const SECRET = 'sk-reliability-fuzz-oidc-9a1e44c2';
const BODY_LIMIT = 256 * 1024;
const AUDIENCE = 'workspace-api';

type Credentials =
  | 'alice'
  | 'bob'
  | 'expired'
  | 'garbage'
  | 'none'
  | 'twice'
  | 'lower-case'
  | 'padded'
  | 'plus-slash'
  | 'ill-formed-id'
  | 'nul-id'
  | 'long-id';

/** Signed tokens the fuzz sends, valid or not. */
type TokenName =
  'alice' | 'bob' | 'expired' | 'ill-formed-id' | 'nul-id' | 'long-id';

/**
 * Every operation with AUTH_MODE=oidc, against the dev OpenID Provider:
 * the generated requests of the main fuzz, each sent with valid, invalid,
 * missing or doubled credentials. Every answer is a documented one (401,
 * 403 and 503 included), a request without valid credentials never
 * succeeds, a valid one is never refused as unauthenticated, and no token
 * appears in an answer or a log line.
 */
describe('Fuzzing every operation with AUTH_MODE=oidc (reliability)', () => {
  let provider: DevAuthProviderProcess;
  let upstream: FakeImageApi;
  let t: TestApp;
  let client: HttpClient;
  const logger = new CapturingLogger();
  const tokens = {} as Record<TokenName, string>;
  const pool: string[] = [];
  const assetPool = new AssetPool();
  const seed = reliabilitySeed('fuzz-oidc');

  beforeAll(async () => {
    const { privateKey } = await generateKeyPair('RS256', {
      extractable: true,
    });
    const jwk: JWK = {
      ...(await exportJWK(privateKey)),
      kid: 'fuzz-key',
      alg: 'RS256',
      use: 'sig',
    };
    provider = await DevAuthProviderProcess.start(jwk);
    upstream = await FakeImageApi.start();
    t = await createTestApp(
      {
        BODY_LIMIT: String(BODY_LIMIT),
        IMAGE_API_KEY: SECRET,
        IMAGE_API_URL: upstream.url,
        AUTH_MODE: 'oidc',
        ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
        AUTH_ISSUER: provider.issuer,
        AUTH_AUDIENCE: AUDIENCE,
      },
      { logger },
    );
    client = new HttpClient(await listen(t));
    tokens.alice = await provider.token('alice');
    tokens.bob = await provider.token('bob');
    const now = Math.floor(Date.now() / 1000);
    tokens.expired = await new SignJWT({
      sub: 'alice',
      iss: provider.issuer,
      aud: AUDIENCE,
      iat: now - 120,
      exp: now - 60,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'fuzz-key' })
      .sign(privateKey);
    // Signed by the provider's key, with a user id no user may have.
    const withUserId = (sub: string) =>
      new SignJWT({
        sub,
        iss: provider.issuer,
        aud: AUDIENCE,
        iat: now,
        exp: now + 3600,
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'fuzz-key' })
        .sign(privateKey);
    tokens['ill-formed-id'] = await withUserId('alice\ud800');
    tokens['nul-id'] = await withUserId('alice\u0000');
    tokens['long-id'] = await withUserId('a'.repeat(256));
    for (let i = 0; i < 5; i++) {
      const answer = await client.send({
        method: 'POST',
        path: '/api/projects',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${tokens.alice}`,
        },
        body: JSON.stringify({ name: `Pool ${i}` }),
      });
      pool.push(
        (JSON.parse(answer.text) as { project: { id: string } }).project.id,
      );
    }
    for (let i = 0; i < 3; i++) await keepPoolLogo();
  });

  /**
   * Keeps a logo of alice's (the upstream answers FUZZ_PNG) in a project of
   * its own: the fuzz deletes the pool's projects.
   */
  async function keepPoolLogo(): Promise<void> {
    const created = await client.send({
      method: 'POST',
      path: '/api/projects',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${tokens.alice}`,
      },
      body: JSON.stringify({ name: 'Pool logo' }),
    });
    const projectId = (JSON.parse(created.text) as { project: { id: string } })
      .project.id;
    upstream.respondNext(Replies.base64(FUZZ_PNG));
    const answer = await client.send(
      AssetPool.keepCall(projectId, {
        authorization: `Bearer ${tokens.alice}`,
      }),
    );
    if (answer.status !== 201) throw new Error(`pool logo: ${answer.text}`);
    assetPool.add(answer);
  }

  afterAll(async () => {
    client?.close();
    await t?.close();
    await upstream?.close();
    await provider?.stop();
  });

  const credentials = fc.constantFrom<Credentials>(
    'alice',
    'alice',
    'alice',
    'bob',
    'expired',
    'garbage',
    'none',
    'twice',
    'lower-case',
    'padded',
    'plus-slash',
    'ill-formed-id',
    'nul-id',
    'long-id',
  );

  function authorization(
    which: Credentials,
  ): Record<string, string | string[]> {
    switch (which) {
      case 'alice':
      case 'bob':
      case 'expired':
      case 'ill-formed-id':
      case 'nul-id':
      case 'long-id':
        return { authorization: `Bearer ${tokens[which]}` };
      // Other spellings of a valid token: refused, never one more cache entry.
      case 'padded':
        return { authorization: `Bearer ${tokens.alice}==` };
      case 'plus-slash':
        return {
          authorization: `Bearer ${tokens.alice.replace(/-/g, '+').replace(/_/g, '/')}${/[-_]/.test(tokens.alice) ? '' : '='}`,
        };
      case 'lower-case':
        return { authorization: `bearer ${tokens.alice}` };
      case 'garbage':
        return { authorization: 'Bearer not-a-token' };
      case 'twice':
        return {
          authorization: [`Bearer ${tokens.alice}`, `Bearer ${tokens.bob}`],
        };
      case 'none':
        return {};
    }
  }

  const proven = (which: Credentials) =>
    which === 'alice' || which === 'bob' || which === 'lower-case';

  it.each(OPERATIONS.map((operation, index) => [operation, index] as const))(
    'answers every generated %s request as documented, whatever its credentials',
    async (operation: Operation, index: number) => {
      let cases = 0;
      const failures: string[] = [];
      // Kept logos need the image itself: a base64 PNG, not a URL.
      if (operation === 'keepLogo') {
        upstream.respondWith(Replies.base64(FUZZ_PNG));
      }
      try {
        await assertProperty(
          fc.asyncProperty(
            requestArbitrary(operation, { bodyLimit: BODY_LIMIT }),
            credentials,
            async (request, which) => {
              cases++;
              if (isAssetOperation(operation) && assetPool.assets.length < 3) {
                await keepPoolLogo();
              }
              const resolved = assetPool.resolve(request, pool);
              const { path } = resolved;
              const answer = await client.send({
                method: request.method,
                path,
                headers: { ...request.headers, ...authorization(which) },
                body: request.body,
              });
              // What the caller sent may come back (a validation issue's
              // path names the caller's own keys): it is not a leak.
              const requestText = `${decodedPath(path)} ${path} ${request.body?.toString('utf8') ?? ''}`;
              const problems = answerProblems(operation, answer, {
                secret: SECRET,
                authenticated: true,
                requestText,
              });
              if (proven(which) && answer.status === 401) {
                problems.push('valid credentials refused with 401');
              }
              assetPool.track(request, resolved, answer);
              if (
                !proven(which) &&
                operation !== 'unknownRoute' &&
                operation !== 'assetContent' &&
                answer.status < 400
              ) {
                problems.push(`answered ${answer.status} without a caller`);
              }
              if (operation === 'assetContent') {
                problems.push(...signedUrlProblems(request, resolved, answer));
              }
              for (const token of Object.values(tokens)) {
                if (answer.text.includes(token)) {
                  problems.push('a token appears in the answer');
                }
              }
              if (problems.length > 0) {
                const summary = `${which}: ${request.method} ${path.slice(0, 200)} → ${answer.status} ${answer.text.slice(0, 300)}: ${problems.join('; ')}`;
                failures.push(summary);
                throw new Error(summary);
              }
            },
          ),
          { seed: seed + index, numRuns: byScale(60, 1_000) },
        );
      } finally {
        upstream.respondWith(Replies.success());
        recordReliability({
          driver: 'fuzz',
          item: `${operation} (oidc)`,
          count: cases,
          failures: failures.length,
          seed: seed + index,
        });
      }
    },
    byScale(120_000, 1_800_000),
  );

  it('never writes a token or the image-API key in a log line', () => {
    const lines = logger.lines.join('\n');
    for (const token of Object.values(tokens)) {
      expect(lines).not.toContain(token);
    }
    expect(lines).not.toContain(SECRET);
  });
});

/**
 * The content route needs no token but a url the service signed: it serves
 * the bytes exactly when the query is the one minted for the asset's own
 * project (whatever credentials come with it), and refuses every other.
 */
function signedUrlProblems(
  request: FuzzRequest,
  resolved: ResolvedRequest,
  answer: Answer,
): string[] {
  const minted =
    resolved.asset !== undefined && request.path.endsWith(`?${MINTED_QUERY}`);
  const served = answer.status === 200 || answer.status === 304;
  if (served && !minted) return [`a url not minted answered ${answer.status}`];
  if (minted && !served && answer.status !== 431) {
    return [`a minted url answered ${answer.status}`];
  }
  return [];
}

/** The path as the server decodes it, or as sent when it cannot be. */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
