/** A caller proven by a bearer token (AUTH_MODE=oidc). */
export interface Caller {
  userId: string;
  /** Holds AUTH_ADMIN_ROLE: may read every user's projects. */
  admin: boolean;
  /** When the proof expires (ms since the epoch): a live stream ends then. */
  expiresAt?: number;
  /** The token's `name` claim, when it carries a usable one (GET /api/me). */
  name?: string;
  /** The token's `email` claim, likewise. */
  email?: string;
  /** The roles the token lists (AUTH_ROLES_CLAIM); absent for a stream ticket. */
  roles?: readonly string[];
}

/**
 * Who a piece of work is done for and what it may spend besides its own
 * input: the caller, whom it counts against, when it is abandoned, and the
 * origin its URLs are written for. The services see only this; over HTTP
 * it is made once per request by AuthGuard (common/http/request-context.ts)
 * and handed to them whole (`@Ctx()`).
 */
export interface CallContext {
  /** The proven caller; undefined when authentication is off. */
  readonly caller: Caller | undefined;
  /** The address the request came from (client-ip.ts). */
  readonly address: string;
  /** Who the request counts against (client-key.ts). */
  readonly clientKey: string;
  /** Aborts when the client leaves before its answer is sent. */
  readonly signal: AbortSignal;
  /**
   * This service's origin as the client reaches it; a Host that cannot
   * be used is invalid input (public-base-url.ts).
   */
  baseUrl(): string;
  /** The same origin, or '' (URLs relative to the request) for such a Host. */
  baseUrlOrRelative(): string;
  /** Adds fields to the request's log line. */
  addLogFields(fields: Record<string, unknown>): void;
}
