import { once } from 'node:events';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type JWK,
} from 'jose';
import { AuthorizationCodes, type SignInSession } from './authorization-codes';
import { RefreshTokens } from './refresh-tokens';
import {
  grantedScope,
  profileClaims,
  SUPPORTED_SCOPES,
} from './sign-in-profile';

/** The parts of oidc-provider (an ES module without type declarations) used here. */
interface OidcProvider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  Client: { find(id: string): Promise<unknown> };
  AccessToken: new (fields: Record<string, unknown>) => {
    save(): Promise<string>;
  };
}
type ProviderClass = new (
  issuer: string,
  configuration: Record<string, unknown>,
) => OidcProvider;

export interface DevAuthProviderOptions {
  port?: number;
  /** The `aud` of the access tokens (the service's AUTH_AUDIENCE). */
  audience?: string;
  /** A private signing key (JWK with `kid`); a new one when absent. */
  signingKey?: JWK;
  /**
   * Browser origins that may fetch a token from a page (the service's
   * CORS_ORIGINS: `*` or a list); none when absent.
   */
  corsOrigins?: string[] | '*';
}

export interface TokenRequest {
  user: string;
  /** Put in the token's `roles` claim. */
  roles?: string[];
  /** Lifetime in seconds (default 3600). */
  expiresIn?: number;
}

const CLIENT_ID = 'workspace-api-dev';
/** The public client (no secret) of a single-page app's PKCE sign-in. */
export const SPA_CLIENT_ID = 'workspace-spa';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The dev sign-in page: a user name, and the request's parameters again. */
function signInForm(query: URLSearchParams): string {
  const hidden = [...query]
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('');
  return `<!doctype html><title>Dev sign-in</title><form method="get" action="/authorize">${hidden}<label>User <input name="login_hint" required autofocus></label> <button>Sign in</button></form>`;
}

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    ...(await exportJWK(privateKey)),
    kid: `dev-${Date.now().toString(36)}`,
    alg: 'RS256',
    use: 'sig',
  };
}

/**
 * A local OpenID Provider for development and tests: oidc-provider (an
 * OpenID Certified implementation) on 127.0.0.1, with discovery, a JWKS
 * and JWT access tokens for one audience. Tokens for any user are minted
 * through the provider's own AccessToken model, so they are exactly what
 * it would issue. `/_dev/token` mints one; `/_dev/rotate` replaces the
 * signing key (the old one stays published) without a restart. A browser
 * app signs in through `/authorize` and `/token` (code with PKCE, ID and
 * refresh tokens) and reads `/userinfo`: what oidc-client-ts expects.
 */
export class DevAuthProvider {
  private provider!: OidcProvider;
  private keys: JWK[] = [];
  private readonly roles = new Map<string, string[]>();
  /** Each user's name and email, as their last sign-in's scopes granted them. */
  private readonly profiles = new Map<string, Record<string, unknown>>();
  private readonly codes = new AuthorizationCodes();
  private readonly refreshTokens = new RefreshTokens();

  private constructor(
    private readonly server: Server,
    readonly audience: string,
    private readonly corsOrigins: string[] | '*' = [],
  ) {}

  static async start(
    options: DevAuthProviderOptions = {},
  ): Promise<DevAuthProvider> {
    const server = createServer((req, res) => dev.handle(req, res));
    const dev = new DevAuthProvider(
      server,
      options.audience ?? 'workspace-api',
      options.corsOrigins,
    );
    server.listen(options.port ?? 0, '127.0.0.1');
    await once(server, 'listening');
    dev.keys = [options.signingKey ?? (await newSigningKey())];
    dev.build();
    return dev;
  }

  /** e.g. http://127.0.0.1:4020: the service's AUTH_ISSUER. */
  get issuer(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** An access token (a signed JWT) for `user`, as the provider issues it. */
  async token(request: TokenRequest): Promise<string> {
    this.roles.set(request.user, request.roles ?? []);
    return this.accessToken(request.user, request.expiresIn);
  }

  /** An access token for `user`, with the roles and profile known of them. */
  private async accessToken(user: string, expiresIn = 3600): Promise<string> {
    const request = { user, expiresIn };
    const client = await this.provider.Client.find(CLIENT_ID);
    const token = new this.provider.AccessToken({
      accountId: request.user,
      client,
      scope: 'api',
      expiresIn: request.expiresIn ?? 3600,
      resourceServer: {
        audience: this.audience,
        accessTokenFormat: 'jwt',
        scope: 'api',
      },
    });
    return token.save();
  }

  /** Signs with a new key from now on; the previous keys stay published. */
  async rotateKeys(): Promise<string> {
    const key = await newSigningKey();
    this.keys = [key, ...this.keys];
    this.build();
    return key.kid!;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private build(): void {
    // oidc-provider is an ES module; Node loads it with require.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Provider } = require('oidc-provider') as {
      Provider: ProviderClass;
    };
    const roles = this.roles;
    this.provider = new Provider(this.issuer, {
      jwks: { keys: this.keys },
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: 'dev-secret',
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
        },
      ],
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => this.audience,
          useGrantedResource: () => true,
          getResourceServerInfo: () => ({
            scope: 'api',
            audience: this.audience,
            accessTokenFormat: 'jwt',
          }),
        },
      },
      extraTokenClaims: (_ctx: unknown, token: { accountId?: string }) =>
        token.accountId
          ? {
              roles: roles.get(token.accountId) ?? [],
              ...this.profiles.get(token.accountId),
            }
          : {},
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (this.answerCors(req, res)) return;
    if (req.url?.startsWith('/_dev/')) {
      void this.handleDev(req, res);
      return;
    }
    const path = new URL(req.url ?? '/', this.issuer).pathname;
    if (req.method === 'GET' && path === '/authorize') {
      this.authorize(req, res);
      return;
    }
    if (req.method === 'POST' && path === '/token') {
      void this.tokenEndpoint(req, res);
      return;
    }
    if (
      (req.method === 'GET' || req.method === 'POST') &&
      path === '/userinfo'
    ) {
      void this.userInfo(req, res);
      return;
    }
    if (req.method === 'GET' && path === '/.well-known/openid-configuration') {
      this.withSignInInDiscovery(res);
    }
    this.provider.callback()(req, res);
  }

  /**
   * Sign-in of a single-page app (authorization code with PKCE, S256):
   * with `login_hint` the user is signed in at once (dev only: no
   * password); without, a form asks for the user name.
   */
  private authorize(req: IncomingMessage, res: ServerResponse): void {
    const query = new URL(req.url ?? '/', this.issuer).searchParams;
    const redirectUri = query.get('redirect_uri') ?? '';
    const failure = (error: string) => {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error }));
    };
    if (query.get('response_type') !== 'code') {
      return failure('unsupported_response_type');
    }
    if (query.get('client_id') !== SPA_CLIENT_ID) {
      return failure('invalid_client');
    }
    if (!/^https?:\/\//.test(redirectUri)) return failure('invalid_request');
    const challenge = query.get('code_challenge') ?? '';
    if (
      query.get('code_challenge_method') !== 'S256' ||
      !/^[A-Za-z0-9_-]{43}$/.test(challenge)
    ) {
      return failure('invalid_request');
    }
    const user = query.get('login_hint');
    if (!user) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(signInForm(query));
      return;
    }
    const scope = grantedScope(query.get('scope'));
    const nonce = query.get('nonce');
    const target = new URL(redirectUri);
    target.searchParams.set(
      'code',
      this.codes.issue({
        clientId: SPA_CLIENT_ID,
        redirectUri,
        codeChallenge: challenge,
        session: {
          user,
          scope,
          ...(nonce === null ? {} : { nonce }),
          authTime: Math.floor(Date.now() / 1000),
        },
      }),
    );
    const state = query.get('state');
    if (state !== null) target.searchParams.set('state', state);
    res.writeHead(302, { Location: target.href });
    res.end();
  }

  /**
   * POST /token: `authorization_code` with its code_verifier, or
   * `refresh_token`. Both answer an access token for the service, an ID
   * token when `openid` was granted and a new refresh token (the one sent
   * is used up): what an OpenID Connect client library such as
   * oidc-client-ts expects of a provider.
   */
  private async tokenEndpoint(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
      });
      res.end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const clientId = form.get('client_id') ?? '';
    let session: SignInSession | undefined;
    let first = false;
    switch (form.get('grant_type')) {
      case 'authorization_code':
        session = this.codes.redeem(form.get('code') ?? '', {
          clientId,
          redirectUri: form.get('redirect_uri') ?? '',
          codeVerifier: form.get('code_verifier') ?? '',
        });
        first = true;
        break;
      case 'refresh_token':
        session = this.refreshTokens.redeem(
          form.get('refresh_token') ?? '',
          clientId,
        );
        // A refresh may narrow the scopes, never widen them.
        if (session && !isWithin(form.get('scope'), session.scope)) {
          return reply(400, { error: 'invalid_scope' });
        }
        break;
      default:
        return reply(400, { error: 'unsupported_grant_type' });
    }
    if (session === undefined) return reply(400, { error: 'invalid_grant' });
    this.profiles.set(session.user, profileClaims(session.user, session.scope));
    const expiresIn = 3600;
    const accessToken = await this.accessToken(session.user, expiresIn);
    reply(200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: expiresIn,
      scope: session.scope,
      refresh_token: this.refreshTokens.issue(clientId, session),
      ...(session.scope.split(' ').includes('openid')
        ? { id_token: await this.idToken(session, clientId, first) }
        : {}),
    });
  }

  /**
   * The ID token of a sign-in: the user, the client as audience, when
   * they signed in, the request's `nonce` (first token only) and the
   * profile claims granted; signed with the current key, as the JWKS
   * publishes it.
   */
  private async idToken(
    session: SignInSession,
    clientId: string,
    first: boolean,
  ): Promise<string> {
    const key = this.keys[0];
    return new SignJWT({
      auth_time: session.authTime,
      azp: clientId,
      ...(first && session.nonce !== undefined ? { nonce: session.nonce } : {}),
      ...profileClaims(session.user, session.scope),
    })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setSubject(session.user)
      .setAudience(clientId)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(await importJWK(key, 'RS256'));
  }

  /**
   * The UserInfo endpoint (OpenID Connect Core 5.3): the claims of the
   * user an access token of this provider names, for a Bearer token.
   */
  private async userInfo(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const refuse = () => {
      res.writeHead(401, {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
        'Content-Type': 'application/json',
      });
      res.end(JSON.stringify({ error: 'invalid_token' }));
    };
    if (token === undefined) return refuse();
    try {
      const { payload } = await jwtVerify(
        token,
        createLocalJWKSet({ keys: this.keys.map(publicJwk) }),
        { issuer: this.issuer, audience: this.audience },
      );
      const sub = String(payload.sub);
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
      });
      res.end(JSON.stringify({ sub, ...this.profiles.get(sub) }));
    } catch {
      refuse();
    }
  }

  /** Discovery names the sign-in above (oidc-provider writes the rest). */
  private withSignInInDiscovery(res: ServerResponse): void {
    const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
    const issuer = this.issuer;
    (res as { end: (chunk?: unknown) => ServerResponse }).end = (chunk) => {
      if (chunk === undefined || res.statusCode !== 200) return end(chunk);
      const document = JSON.parse(
        Buffer.isBuffer(chunk) ? chunk.toString('utf8') : (chunk as string),
      ) as Record<string, unknown>;
      document.authorization_endpoint = `${issuer}/authorize`;
      document.token_endpoint = `${issuer}/token`;
      document.userinfo_endpoint = `${issuer}/userinfo`;
      document.code_challenge_methods_supported = ['S256'];
      document.grant_types_supported = ['authorization_code', 'refresh_token'];
      document.response_types_supported = ['code'];
      document.scopes_supported = SUPPORTED_SCOPES;
      document.token_endpoint_auth_methods_supported = ['none'];
      document.id_token_signing_alg_values_supported = ['RS256'];
      const text = JSON.stringify(document);
      if (!res.headersSent) {
        res.setHeader('Content-Length', Buffer.byteLength(text));
      }
      return end(text);
    };
  }

  /**
   * CORS for the configured origins, so a browser demo on the page's own
   * origin can POST /_dev/token (and read discovery and the JWKS). Answers
   * a preflight itself (true); otherwise only adds the headers.
   */
  private answerCors(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    const allowed =
      origin !== undefined &&
      (this.corsOrigins === '*' || this.corsOrigins.includes(origin));
    if (!allowed) return false;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    if (req.method !== 'OPTIONS') return false;
    res.writeHead(204, {
      'Access-Control-Allow-Methods': 'GET, POST',
      'Access-Control-Allow-Headers': 'Content-Type, Authorization',
      'Access-Control-Max-Age': '600',
    });
    res.end();
    return true;
  }

  private async handleDev(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'POST' && req.url === '/_dev/token') {
        const request = JSON.parse(text || '{}') as TokenRequest;
        if (typeof request.user !== 'string' || request.user === '') {
          return reply(400, { error: 'user is required' });
        }
        return reply(200, { access_token: await this.token(request) });
      }
      if (req.method === 'POST' && req.url === '/_dev/rotate') {
        return reply(200, { kid: await this.rotateKeys() });
      }
      reply(404, { error: 'Not found' });
    } catch (error) {
      reply(500, {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

/** The public half of a signing key, as the JWKS publishes it. */
function publicJwk({ kty, n, e, crv, x, y, kid, alg, use }: JWK): JWK {
  return Object.fromEntries(
    Object.entries({ kty, n, e, crv, x, y, kid, alg, use }).filter(
      ([, value]) => value !== undefined,
    ),
  );
}

/** Whether every scope of `asked` (none: all) is among `granted`. */
function isWithin(asked: string | null, granted: string): boolean {
  if (asked === null || asked.trim() === '') return true;
  const held = granted.split(' ');
  return asked
    .split(' ')
    .every((scope) => scope === '' || held.includes(scope));
}
