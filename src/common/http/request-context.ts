import type { Request } from 'express';
import type { FailurePolicy } from '../../failures/failure-message.decorator';

/**
 * What the request carries between the guards, the handlers and the
 * exception filter. Symbols keep it off the public shape
 * of the request.
 */
const FAILURE_POLICY = Symbol('failurePolicy');
const BODY_DIGEST = Symbol('bodyDigest');
const CALLER = Symbol('caller');

/** A caller proven by a bearer token (AUTH_MODE=oidc). */
export interface Caller {
  userId: string;
  /** Holds AUTH_ADMIN_ROLE: may read every user's projects. */
  admin: boolean;
}

interface RequestContext {
  [FAILURE_POLICY]?: FailurePolicy;
  [BODY_DIGEST]?: string;
  [CALLER]?: Caller;
}

const context = (request: Request) => request as Request & RequestContext;

export function setFailurePolicy(
  request: Request,
  policy: FailurePolicy | undefined,
): void {
  context(request)[FAILURE_POLICY] = policy;
}

export function getFailurePolicy(request: Request): FailurePolicy | undefined {
  return context(request)[FAILURE_POLICY];
}

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
