import { registerAs } from '@nestjs/config';
import {
  ConfigurationError,
  httpUrl,
  integer,
  read,
  type Env,
} from '../environment/env-values';

/** Who may call the API: anyone (the default), or OpenID Connect bearer tokens. */
export type AuthConfig = { mode: 'none' } | OidcConfig;

export interface OidcConfig {
  mode: 'oidc';
  /** The provider's issuer URL, as tokens carry it in `iss`. */
  issuer: string;
  /** The `aud` a token must be issued for. */
  audience: string;
  /** Overrides the jwks_uri of the issuer's discovery document. */
  jwksUrl: string | undefined;
  algorithms: string[];
  clockToleranceSeconds: number;
  /** The claim holding the caller's user id. */
  userClaim: string;
  /** Callers holding this role may read every user's projects. */
  adminRole: string | undefined;
  /** The claim listing the caller's roles (a dot walks into objects). */
  rolesClaim: string;
  /** After a key-set fetch, unknown key ids wait this long for the next. */
  jwksCooldownSeconds: number;
  /**
   * ASSET_URL_SIGNING_KEY (required with oidc, checked with the assets'
   * settings): stream tickets are signed with a key derived from it.
   */
  signingKey?: string;
}

/** Asymmetric JWS algorithms only: never `none`, never an HMAC secret. */
export const AUTH_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

export const authConfig = registerAs(
  'auth',
  (env: Env = process.env): AuthConfig => {
    const mode = read(env, 'AUTH_MODE')?.toLowerCase() ?? 'none';
    if (mode === 'none') return { mode };
    if (mode !== 'oidc') {
      throw new ConfigurationError(
        'AUTH_MODE',
        `must be none or oidc (got "${mode}")`,
      );
    }
    for (const name of ['AUTH_ISSUER', 'AUTH_AUDIENCE']) {
      if (read(env, name) === undefined) {
        throw new ConfigurationError(name, 'must be set when AUTH_MODE=oidc');
      }
    }
    const algorithms = (read(env, 'AUTH_ALGORITHMS') ?? 'RS256,ES256,EdDSA')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    const refused = algorithms.filter(
      (name) => !(AUTH_ALGORITHMS as readonly string[]).includes(name),
    );
    if (refused.length > 0 || algorithms.length === 0) {
      throw new ConfigurationError(
        'AUTH_ALGORITHMS',
        `must list algorithms among ${AUTH_ALGORITHMS.join(', ')} (got "${refused.join(',')}")`,
      );
    }
    return {
      mode,
      issuer: httpUrl(env, 'AUTH_ISSUER', ''),
      audience: read(env, 'AUTH_AUDIENCE')!,
      jwksUrl:
        read(env, 'AUTH_JWKS_URL') === undefined
          ? undefined
          : httpUrl(env, 'AUTH_JWKS_URL', ''),
      algorithms,
      clockToleranceSeconds: integer(env, 'AUTH_CLOCK_TOLERANCE_S', 5, 0, 300),
      userClaim: read(env, 'AUTH_USER_CLAIM') ?? 'sub',
      adminRole: read(env, 'AUTH_ADMIN_ROLE'),
      rolesClaim: read(env, 'AUTH_ROLES_CLAIM') ?? 'roles',
      jwksCooldownSeconds: integer(env, 'AUTH_JWKS_COOLDOWN_S', 30, 0, 3600),
      signingKey: read(env, 'ASSET_URL_SIGNING_KEY'),
    };
  },
);
