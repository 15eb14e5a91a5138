import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { OidcConfig } from './auth.config';
import { AuthFailure } from '../failures/auth-failure.error';
import type { Caller } from '../common/call-context';
import { isWellFormedText } from '../common/validation/storable-text.decorator';
import { USER_ID_MAX } from '../common/ids';
import { KeysUnavailableError } from './keys-unavailable.error';
import { ProviderKeys } from './provider-keys';

/**
 * What the verified-token cache may hold, in (estimated) bytes; the oldest
 * entry is forgotten first. An entry is a 32-byte digest and a caller.
 */
export const CACHE_BYTES = 4 * 1024 * 1024;

/** The estimated bytes of an entry besides its user id: key, record, map slot. */
const ENTRY_OVERHEAD_BYTES = 200;

/** How often expired entries are swept out, whether or not tokens arrive. */
const SWEEP_EVERY_MS = 60_000;

/** The characters of a caller's text: its id, name, email and roles. */
function callerChars(caller: Caller): number {
  let chars =
    caller.userId.length +
    (caller.name?.length ?? 0) +
    (caller.email?.length ?? 0);
  for (const role of caller.roles ?? []) chars += role.length + 16;
  return chars;
}

interface Remembered {
  caller: Caller;
  expiresAt: number;
  bytes: number;
}

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
 * A verified token is remembered until its `exp`, keyed by the SHA-256 of
 * its text: the same bytes carry the same signature and claims, so
 * verifying them again could only give the same answer until they expire.
 * That keeps the signature check (about a tenth of a millisecond) off every
 * request of a session. The cache holds at most CACHE_BYTES whatever the
 * tokens' size (bearer-token.ts allows one spelling per token), and expired
 * entries are swept every minute.
 */
export class TokenVerifier {
  private readonly keys: ProviderKeys;
  private readonly verified = new Map<string, Remembered>();
  private cachedBytes = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly config: OidcConfig,
    private readonly cacheBytes = CACHE_BYTES,
  ) {
    this.keys = new ProviderKeys(config);
    this.sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  /** Entries and estimated bytes the cache holds now. */
  get cacheSize(): { entries: number; bytes: number } {
    return { entries: this.verified.size, bytes: this.cachedBytes };
  }

  async verify(token: string): Promise<Caller> {
    const key = createHash('sha256').update(token).digest('base64');
    const known = this.verified.get(key);
    if (known && Date.now() < known.expiresAt) return known.caller;
    if (known) this.forget(key, known);

    const payload = await this.verifiedPayload(token);
    const expiresAt = (payload.exp as number) * 1000;
    const caller = { ...this.callerOf(payload), expiresAt };
    this.remember(key, caller, expiresAt);
    return caller;
  }

  /** Drops every expired entry (also called by the minute timer). */
  sweep(now = Date.now()): void {
    for (const [key, entry] of this.verified) {
      if (entry.expiresAt <= now) this.forget(key, entry);
    }
  }

  private remember(key: string, caller: Caller, expiresAt: number): void {
    const bytes = ENTRY_OVERHEAD_BYTES + callerChars(caller) * 2;
    const previous = this.verified.get(key);
    if (previous) this.forget(key, previous);
    while (this.cachedBytes + bytes > this.cacheBytes && this.verified.size) {
      const [oldestKey, oldest] = this.verified.entries().next().value as [
        string,
        Remembered,
      ];
      this.forget(oldestKey, oldest);
    }
    this.verified.set(key, { caller, expiresAt, bytes });
    this.cachedBytes += bytes;
  }

  private forget(key: string, entry: Remembered): void {
    this.verified.delete(key);
    this.cachedBytes -= entry.bytes;
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
    // The id keys the caller's projects, rate limits and idempotency
    // records: text a database would change on the way in (a lone
    // surrogate becomes U+FFFD in PostgreSQL) would name another user's.
    if (
      typeof userId !== 'string' ||
      userId === '' ||
      userId.length > USER_ID_MAX ||
      userId.includes('\u0000') ||
      !isWellFormedText(userId)
    ) {
      throw AuthFailure.unauthorized(
        `no usable ${this.config.userClaim} claim`,
        'invalid_token',
      );
    }
    const roles = this.rolesOf(payload);
    const adminRole = this.config.adminRole;
    const caller: Caller = {
      userId,
      admin: adminRole !== undefined && roles.includes(adminRole),
      roles,
    };
    const name = profileText(payload.name, NAME_MAX);
    const email = profileText(payload.email, EMAIL_MAX);
    return {
      ...caller,
      ...(name === undefined ? {} : { name }),
      ...(email === undefined ? {} : { email }),
    };
  }

  /**
   * The roles AUTH_ROLES_CLAIM lists: an array of names, or one string of
   * names separated by spaces (as `scope`). Names that are not text are
   * left out; at most ROLES_MAX are kept.
   */
  private rolesOf(payload: JWTPayload): string[] {
    let value: unknown = payload;
    for (const step of this.config.rolesClaim.split('.')) {
      value =
        typeof value === 'object' && value !== null
          ? (value as Record<string, unknown>)[step]
          : undefined;
    }
    const names: unknown[] = Array.isArray(value)
      ? value
      : typeof value === 'string'
        ? value.split(' ')
        : [];
    const roles: string[] = [];
    for (const name of names) {
      if (roles.length === ROLES_MAX) break;
      const role = profileText(name, ROLE_MAX);
      if (role !== undefined) roles.push(role);
    }
    return roles;
  }
}

/** Most roles kept of a token, and the longest role name kept. */
const ROLES_MAX = 100;
const ROLE_MAX = 256;
/** The longest `name` and `email` kept (RFC 5321's path limit for email). */
const NAME_MAX = 256;
const EMAIL_MAX = 320;

/**
 * A claim shown to the caller as text: a non-empty well-formed string no
 * longer than `max`, else undefined (left out rather than refusing a
 * token whose proof is good).
 */
function profileText(value: unknown, max: number): string | undefined {
  return typeof value === 'string' &&
    value !== '' &&
    value.length <= max &&
    !value.includes('\u0000') &&
    isWellFormedText(value)
    ? value
    : undefined;
}
