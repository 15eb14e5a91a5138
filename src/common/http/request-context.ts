import type { Request } from 'express';

/**
 * What the request carries between the guards and the handlers (the
 * failure policy is in failures/request-failure-policy.ts). Symbols keep it
 * off the public shape of the request.
 */
const BODY_DIGEST = Symbol('bodyDigest');
const CALLER = Symbol('caller');

/** A caller proven by a bearer token (AUTH_MODE=oidc). */
export interface Caller {
  userId: string;
  /** Holds AUTH_ADMIN_ROLE: may read every user's projects. */
  admin: boolean;
}

interface RequestContext {
  [BODY_DIGEST]?: string;
  [CALLER]?: Caller;
}

const context = (request: Request) => request as Request & RequestContext;

/** SHA-256 of the body's bytes, kept for an Idempotency-Key's fingerprint. */
export function setBodyDigest(request: Request, digest: string): void {
  context(request)[BODY_DIGEST] = digest;
}

export function getBodyDigest(request: Request): string | undefined {
  return context(request)[BODY_DIGEST];
}

export function setCaller(request: Request, caller: Caller): void {
  context(request)[CALLER] = caller;
}

/** The proven caller; undefined when authentication is off. */
export function getCaller(request: Request): Caller | undefined {
  return context(request)[CALLER];
}
