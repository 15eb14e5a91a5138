import type { Request, Response } from 'express';
import { addRequestLogFields } from '../../logging/request-log';
import { clientAbortSignal } from './client-abort-signal';
import { clientIpOf } from './client-ip';
import { clientKeyOf } from './client-key';
import { publicBaseUrl, publicBaseUrlOrRelative } from './public-base-url';
import type { CallContext, Caller } from '../call-context';

export type { CallContext, Caller } from '../call-context';

/**
 * What the request carries between the guards and the handlers (the
 * failure policy is in failures/request-failure-policy.ts). Symbols keep it
 * off the public shape of the request.
 */
const BODY_DIGEST = Symbol('bodyDigest');
const CONTEXT = Symbol('requestContext');

interface RequestState {
  [BODY_DIGEST]?: string;
  [CONTEXT]?: CallContext;
}

const state = (request: Request) => request as Request & RequestState;

/** SHA-256 of the body's bytes, kept for an Idempotency-Key's fingerprint. */
export function setBodyDigest(request: Request, digest: string): void {
  state(request)[BODY_DIGEST] = digest;
}

export function getBodyDigest(request: Request): string | undefined {
  return state(request)[BODY_DIGEST];
}

/**
 * Makes the request's context and keeps it on the request. The abort
 * signal is made only when something asks for it: most routes never
 * wait on anything a client could leave.
 */
export function startRequestContext(
  request: Request,
  response: Response,
  caller: Caller | undefined,
  configuredBaseUrl: string | undefined,
): CallContext {
  const context = new HttpRequestContext(
    request,
    response,
    caller,
    configuredBaseUrl,
  );
  state(request)[CONTEXT] = context;
  return context;
}

// A class, not an object literal with a getter: V8 builds such a literal
// the slow way every time (3 µs a context, measured, against 0.15 µs for
// this class), and every request makes one.
class HttpRequestContext implements CallContext {
  readonly address: string;
  readonly clientKey: string;
  private abortSignal?: AbortSignal;

  constructor(
    private readonly request: Request,
    private readonly response: Response,
    readonly caller: Caller | undefined,
    private readonly configuredBaseUrl: string | undefined,
  ) {
    this.address = clientIpOf(request);
    this.clientKey = clientKeyOf(caller, this.address);
  }

  get signal(): AbortSignal {
    return (this.abortSignal ??= clientAbortSignal(
      this.request,
      this.response,
    ));
  }

  baseUrl(): string {
    return publicBaseUrl(this.configuredBaseUrl, this.request);
  }

  baseUrlOrRelative(): string {
    return publicBaseUrlOrRelative(this.configuredBaseUrl, this.request);
  }

  addLogFields(fields: Record<string, unknown>): void {
    addRequestLogFields(this.response, fields);
  }
}

/** The context AuthGuard made, or undefined before it ran. */
export function findRequestContext(request: Request): CallContext | undefined {
  return state(request)[CONTEXT];
}

/** The context AuthGuard made; every guarded request has one. */
export function getRequestContext(request: Request): CallContext {
  const context = state(request)[CONTEXT];
  if (!context)
    throw new Error('The request has no context: AuthGuard did not run');
  return context;
}
