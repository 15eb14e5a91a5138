import type { JWTVerifyGetKey } from 'jose';
import type { OidcConfig } from './auth.config';
import { KeysUnavailableError } from './keys-unavailable.error';

const DISCOVERY_TIMEOUT_MS = 5000;

/**
 * The OpenID Provider's signing keys. The key set's URL comes from the
 * issuer's discovery document (or AUTH_JWKS_URL). Keys are cached with no
 * age limit, so they keep working while the provider is down; a token
 * whose `kid` is not cached makes jose fetch the set again, at most once
 * per AUTH_JWKS_COOLDOWN_S, which is how a key rotation is picked up
 * without a restart.
 */
export class ProviderKeys {
  private keySet?: JWTVerifyGetKey;
  private pending?: Promise<JWTVerifyGetKey>;

  constructor(private readonly config: OidcConfig) {}

  /** The key set to verify with; throws KeysUnavailableError. */
  async get(): Promise<JWTVerifyGetKey> {
    if (this.keySet) return this.keySet;
    this.pending ??= this.discover().finally(() => (this.pending = undefined));
    this.keySet = await this.pending;
    return this.keySet;
  }

  private async discover(): Promise<JWTVerifyGetKey> {
    const url = this.config.jwksUrl ?? (await this.jwksUriOfIssuer());
    // Loaded here, not at start-up: only AUTH_MODE=oidc needs it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createRemoteJWKSet } = require('jose') as typeof import('jose');
    return createRemoteJWKSet(new URL(url), {
      cacheMaxAge: Infinity,
      cooldownDuration: this.config.jwksCooldownSeconds * 1000,
      timeoutDuration: DISCOVERY_TIMEOUT_MS,
    });
  }

  private async jwksUriOfIssuer(): Promise<string> {
    const issuer = this.config.issuer.replace(/\/$/, '');
    let document: { issuer?: unknown; jwks_uri?: unknown };
    try {
      const response = await fetch(
        `${issuer}/.well-known/openid-configuration`,
        { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) },
      );
      if (!response.ok)
        throw new Error(`discovery answered ${response.status}`);
      document = (await response.json()) as typeof document;
    } catch (error) {
      throw new KeysUnavailableError(error);
    }
    if (typeof document.jwks_uri !== 'string') {
      throw new KeysUnavailableError(new Error('discovery has no jwks_uri'));
    }
    return document.jwks_uri;
  }
}
