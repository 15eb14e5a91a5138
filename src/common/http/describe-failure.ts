import { HttpException, HttpStatus } from '@nestjs/common';
import { InputValidationException } from '../errors/input-validation.exception';
import { PublicError } from '../errors/public-error';
import type { FailurePolicy } from './failure-message.decorator';

export interface FailureResponse {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Maps any thrown value to the status and body SPEC §7 documents for the
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

  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (!policy) {
      // Nest's own "Cannot GET /x" would echo routing details.
      const text = status === 404 ? 'Not found' : exception.message;
      return { status, body: { error: text } };
    }
    if (status < 500) return { status, body: envelope(exception.message) };
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
