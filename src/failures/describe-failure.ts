import { HttpException, HttpStatus } from '@nestjs/common';
import { AuthFailure } from './auth-failure.error';
import { ClientClosedRequestError } from './client-closed-request.error';
import { InputValidationException } from './input-validation.error';
import { PublicError } from './public.error';
import {
  UNREADABLE_BODY_MESSAGE,
  UnreadableBodyError,
} from './unreadable-body.error';
import { RetryLaterError } from './retry-later.error';
import type { FailurePolicy } from './failure-message.decorator';

export interface FailureResponse {
  status: number;
  body: Record<string, unknown>;
  /** Response headers the failure needs (Retry-After). */
  headers?: Record<string, string>;
}

/** nginx's code for a request its client abandoned; never seen by a client. */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * Maps any thrown value to the status and body documented for the
 * route it came from. `policy` is undefined when no route matched.
 */
export function describeFailure(
  exception: unknown,
  policy: FailurePolicy | undefined,
): FailureResponse {
  const envelope = (error: string, extra: Record<string, unknown> = {}) =>
    policy?.envelope === 'success-flag'
      ? { success: false, error, ...extra }
      : { error, ...extra };

  if (exception instanceof InputValidationException) {
    return {
      status: HttpStatus.BAD_REQUEST,
      body: envelope('Invalid input', { details: exception.issues }),
    };
  }

  if (exception instanceof AuthFailure) {
    return {
      status: exception.status,
      body: envelope(exception.message),
      headers: exception.headers,
    };
  }

  if (exception instanceof RetryLaterError) {
    return {
      status: exception.status,
      body: envelope(
        exception.message,
        exception.code ? { code: exception.code } : {},
      ),
      headers: { 'Retry-After': String(exception.retryAfterSeconds) },
    };
  }

  if (exception instanceof ClientClosedRequestError) {
    return {
      status: CLIENT_CLOSED_REQUEST,
      body: envelope(exception.message),
    };
  }

  // A client error keeps its status; a 5xx HttpException is treated as any
  // other failure below.
  if (exception instanceof HttpException && exception.getStatus() < 500) {
    const status = exception.getStatus();
    if (policy) return { status, body: envelope(exception.message) };
    // No route matched. Nest's own "Cannot GET /x" would echo the request.
    const text = status === 404 ? 'Not found' : exception.message;
    return { status, body: { error: text } };
  }

  if (
    policy?.unreadableBodyIsClientError &&
    exception instanceof UnreadableBodyError
  ) {
    return {
      status: HttpStatus.BAD_REQUEST,
      body: envelope(UNREADABLE_BODY_MESSAGE),
    };
  }

  if (policy?.exposePublicErrors && exception instanceof PublicError) {
    return {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      body: envelope(exception.message),
    };
  }

  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: envelope(policy?.message ?? 'Internal server error'),
  };
}
