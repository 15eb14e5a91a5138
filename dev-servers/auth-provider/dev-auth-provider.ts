import { once } from 'node:events';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

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
 * signing key (the old one stays published) without a restart.
 */
export class DevAuthProvider {
  private provider!: OidcProvider;
  private keys: JWK[] = [];
  private readonly roles = new Map<string, string[]>();

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
        token.accountId ? { roles: roles.get(token.accountId) ?? [] } : {},
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (this.answerCors(req, res)) return;
    if (req.url?.startsWith('/_dev/')) {
      void this.handleDev(req, res);
      return;
    }
    this.provider.callback()(req, res);
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
