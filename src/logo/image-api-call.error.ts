import { LogoGenerationError } from './logo-generation.error';
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
  ) {
    super(message, logDetail);
  }
}
