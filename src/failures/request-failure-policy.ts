import type { Request } from 'express';
import type { FailurePolicy } from './failure-message.decorator';

/**
 * The route's failure policy, carried on the request: exception filters
 * receive no handler, so RouteContextGuard copies it here for
 * AllExceptionsFilter (and the JSON body guard) to read. A symbol keeps it
 * off the public shape of the request.
 */
const FAILURE_POLICY = Symbol('failurePolicy');

type WithFailurePolicy = Request & { [FAILURE_POLICY]?: FailurePolicy };

export function setFailurePolicy(
  request: Request,
  policy: FailurePolicy | undefined,
): void {
  (request as WithFailurePolicy)[FAILURE_POLICY] = policy;
}

export function getFailurePolicy(request: Request): FailurePolicy | undefined {
  return (request as WithFailurePolicy)[FAILURE_POLICY];
}
