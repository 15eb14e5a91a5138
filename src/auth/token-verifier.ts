import type { JWTPayload } from 'jose';
import type { OidcConfig } from '../../config/environment';
import { AuthFailure } from '../common/errors/auth-failure.error';
import type { Caller } from '../common/http/request-context';
import { KeysUnavailableError, ProviderKeys } from './provider-keys';

/** Verified tokens remembered at once; the oldest is forgotten first. */
const CACHE_LIMIT = 10_000;

/**
 * jose, loaded on the first token: without AUTH_MODE=oidc it is start-up
 * time (some 80 modules) for nothing.
 */
const loadJose = (): typeof import('jose') =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('jose') as typeof import('jose');

/** Failures that say the token is bad, as opposed to the provider being down. */
const tokenErrors = ({ errors }: typeof import('jose')) => [
  errors.JWTExpired,
  errors.JWTClaimValidationFailed,
  errors.JWTInvalid,
  errors.JWSInvalid,
  errors.JWSSignatureVerificationFailed,
  errors.JOSEAlgNotAllowed,
  errors.JOSENotSupported,
  errors.JWKSNoMatchingKey,
  errors.JWKSMultipleMatchingKeys,
  errors.JWKInvalid,
];

/**
 * Turns a bearer token into the caller it proves (jose's jwtVerify: the
 * signature with the provider's keys and an allowed algorithm, `iss`,
 * `aud`, a required `exp`, `nbf`, all within the clock tolerance).
 *
 * A verified token is remembered until its `exp`, keyed by the token text
 * itself: the same bytes carry the same signature and claims, so verifying
 * them again could only give the same answer until they expire. That keeps
 * the signature check (about a tenth of a millisecond) off every request of
 * a session.
 */
export class TokenVerifier {
  private readonly keys: ProviderKeys;
  private readonly verified = new Map<
    string,
    { caller: Caller; expiresAt: number }
  >();

  constructor(private readonly config: OidcConfig) {
    this.keys = new ProviderKeys(config);
  }

  async verify(token: string): Promise<Caller> {
    const known = this.verified.get(token);
    if (known && Date.now() < known.expiresAt) return known.caller;
    if (known) this.verified.delete(token);

    const payload = await this.verifiedPayload(token);
    const caller = this.callerOf(payload);
    if (this.verified.size >= CACHE_LIMIT) {
      this.verified.delete(this.verified.keys().next().value as string);
    }
    this.verified.set(token, {
      caller,
      expiresAt: (payload.exp as number) * 1000,
    });
    return caller;
  }

  private async verifiedPayload(token: string): Promise<JWTPayload> {
    const jose = loadJose();
    // What can be refused without the provider's keys is refused first, so
    // garbage gets its 401 even while the keys cannot be fetched.
    let alg: unknown;
    try {
      ({ alg } = jose.decodeProtectedHeader(token));
    } catch {
      throw AuthFailure.unauthorized('not a JWS', 'invalid_token');
    }
    if (typeof alg !== 'string' || !this.config.algorithms.includes(alg)) {
      throw AuthFailure.unauthorized(
        `algorithm ${String(alg)} not allowed`,
        'invalid_token',
      );
    }
    const keySet = await this.keys.get();
    try {
      const { payload } = await jose.jwtVerify(token, keySet, {
        issuer: this.config.issuer,
        audience: this.config.audience,
        algorithms: this.config.algorithms,
        clockTolerance: this.config.clockToleranceSeconds,
        requiredClaims: ['exp'],
      });
      const now = Date.now() / 1000;
      if (
        typeof payload.iat === 'number' &&
        payload.iat > now + this.config.clockToleranceSeconds
      ) {
        throw AuthFailure.unauthorized('iat is in the future', 'invalid_token');
      }
      return payload;
    } catch (error) {
      if (error instanceof AuthFailure) throw error;
      if (tokenErrors(jose).some((type) => error instanceof type)) {
        const code = (error as { code?: string }).code ?? 'invalid';
        throw AuthFailure.unauthorized(code, 'invalid_token');
      }
      // Anything else is the key set's fetch: no keys, no verdict.
      throw new KeysUnavailableError(error);
    }
  }

  private callerOf(payload: JWTPayload): Caller {
    const userId = payload[this.config.userClaim];
    if (
      typeof userId !== 'string' ||
      userId === '' ||
      userId.length > 255 ||
      userId.includes('\u0000')
    ) {
      throw AuthFailure.unauthorized(
        `no usable ${this.config.userClaim} claim`,
        'invalid_token',
      );
    }
    return { userId, admin: this.holdsAdminRole(payload) };
  }

  private holdsAdminRole(payload: JWTPayload): boolean {
    const role = this.config.adminRole;
    if (role === undefined) return false;
    let value: unknown = payload;
    for (const step of this.config.rolesClaim.split('.')) {
      value =
        typeof value === 'object' && value !== null
          ? (value as Record<string, unknown>)[step]
          : undefined;
    }
    return Array.isArray(value)
      ? value.includes(role)
      : typeof value === 'string' && value.split(' ').includes(role);
  }
}
