import { HttpException, HttpStatus } from '@nestjs/common';
import { AuthFailure } from './auth-failure.error';
import { bodyFieldsOf } from './body-fields';
import { ClientClosedRequestError } from './client-closed-request.error';
import { defaultCodeOf, isErrorCode, type ErrorCode } from './error-codes';
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

// Long on purpose: the order of the checks is the policy (the first that
// matches decides), read best top to bottom in one place.
/**
 * Maps any thrown value to the status and body documented for the
 * route it came from. `policy` is undefined when no route matched.
 */
export function describeFailure(
  exception: unknown,
  policy: FailurePolicy | undefined,
): FailureResponse {
  // Every body carries a `code` beside the contract's fields.
  const envelope = (
    error: string,
    code: ErrorCode,
    extra: Record<string, unknown> = {},
  ) =>
    policy?.envelope === 'success-flag'
      ? { success: false, error, ...extra, code }
      : { error, ...extra, code };

  if (exception instanceof InputValidationException) {
    return {
      status: HttpStatus.BAD_REQUEST,
      body: envelope('Invalid input', exception.code, {
        details: exception.issues,
      }),
    };
  }

  if (exception instanceof AuthFailure) {
    return {
      status: exception.status,
      body: envelope(exception.message, defaultCodeOf(exception.status)),
      headers: exception.headers,
    };
  }

  if (exception instanceof RetryLaterError) {
    return {
      status: exception.status,
      body: envelope(exception.message, exception.code),
      headers: { 'Retry-After': String(exception.retryAfterSeconds) },
    };
  }

  if (exception instanceof ClientClosedRequestError) {
    return {
      status: CLIENT_CLOSED_REQUEST,
      body: envelope(exception.message, 'internal_error'),
    };
  }

  // A client error keeps its status; a 5xx HttpException is treated as any
  // other failure below.
  if (exception instanceof HttpException && exception.getStatus() < 500) {
    const status = exception.getStatus();
    const own = (exception as { code?: unknown }).code;
    const code = isErrorCode(own) ? own : defaultCodeOf(status);
    if (policy) {
      return {
        status,
        body: envelope(exception.message, code, bodyFieldsOf(exception)),
      };
    }
    // No route matched. Nest's own "Cannot GET /x" would echo the request.
    const text = status === 404 ? 'Not found' : exception.message;
    return { status, body: { error: text, code } };
  }

  if (
    policy?.unreadableBodyIsClientError &&
    exception instanceof UnreadableBodyError
  ) {
    return {
      status: HttpStatus.BAD_REQUEST,
      body: envelope(UNREADABLE_BODY_MESSAGE, exception.code),
    };
  }

  if (policy?.exposePublicErrors && exception instanceof PublicError) {
    return {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      body: envelope(exception.message, exception.code),
    };
  }

  // The route's fixed text hides the message; the code of a failure written
  // for clients (PublicError) still says what failed.
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: envelope(
      policy?.message ?? 'Internal server error',
      exception instanceof PublicError ? exception.code : 'internal_error',
    ),
  };
}
