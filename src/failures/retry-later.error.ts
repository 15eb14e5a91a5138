import type { ErrorCode } from './error-codes';

/**
 * A request refused for now that may succeed if sent again later: the
 * response carries `Retry-After: <retryAfterSeconds>`. The message is written
 * for the client. These are the statuses added for production (docs/api.md lists
 * them): 429 for a client over its rate limit, 503 for a full queue.
 */
export abstract class RetryLaterError extends Error {
  abstract readonly status: number;
  /** The stable, machine-readable cause sent beside the text. */
  abstract readonly code: ErrorCode;

  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 429: this client has used its budget for the current window. */
export class TooManyRequestsError extends RetryLaterError {
  readonly status = 429;
  readonly code: ErrorCode = 'rate_limited';
}

/** 503: this instance is at capacity; another try (or replica) may succeed. */
export class ServiceBusyError extends RetryLaterError {
  readonly status = 503;
  readonly code: ErrorCode = 'busy';
}
