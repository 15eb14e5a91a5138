import { LogoGenerationError } from './logo-generation.error';
import type { ErrorCode } from '../failures/error-codes';
import type { ImageApiCallOutcome } from './logo-metrics';

/**
 * One failed call to the image API. The message is what the client sees if
 * this is the last call (the upstream error.message, else "Failed to
 * generate logo"); the rest tells the retry loop what to do, and the log
 * detail tells an operator where the call failed.
 */
export class ImageApiCallError extends LogoGenerationError {
  constructor(
    message: string,
    /** Another call might succeed: 429, 5xx, a timeout, a lost connection. */
    readonly retryable: boolean,
    /** The upstream's Retry-After, in milliseconds, when it sent one. */
    readonly retryAfterMs?: number,
    /** How the call ended, for the image_api_calls_total metric. */
    readonly outcome: Exclude<
      ImageApiCallOutcome,
      'success' | 'cancelled'
    > = 'error_response',
    logDetail?: string,
    /** The upstream's answer read as a code (upstreamErrorCode). */
    code?: ErrorCode,
  ) {
    super(message, logDetail, code ?? codeOfOutcome(outcome, retryable));
  }
}

function codeOfOutcome(
  outcome: ImageApiCallError['outcome'],
  retryable: boolean,
): ErrorCode {
  switch (outcome) {
    case 'timeout':
      return 'upstream_timeout';
    case 'unreachable':
      return 'upstream_unreachable';
    case 'invalid_response':
      return 'upstream_invalid_answer';
    default:
      return retryable ? 'upstream_failed' : 'upstream_refused';
  }
}
