import type { ErrorCode } from '../failures/error-codes';
import { UnprocessableEntityException } from '@nestjs/common';
import { RetryLaterError } from '../failures/retry-later.error';

/** 409: the key's first request is still being processed; retry later. */
export class IdempotencyKeyInUseError extends RetryLaterError {
  readonly status = 409;
  override readonly code: ErrorCode = 'idempotency_key_in_use';

  constructor(retryAfterSeconds: number) {
    super(
      'A request with this Idempotency-Key is still being processed',
      retryAfterSeconds,
    );
  }
}

/** 422: the key was first used with another request body. */
export class IdempotencyKeyReusedError extends UnprocessableEntityException {
  readonly code: ErrorCode = 'idempotency_key_reused';

  constructor() {
    super('This Idempotency-Key was used with a different request body');
  }
}
