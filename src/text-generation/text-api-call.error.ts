/** Why a call to the text or code model failed, as a task's error shows it. */
export type TextFailureCode =
  | 'refused'
  | 'rate_limited'
  | 'upstream_error'
  | 'timeout'
  | 'invalid_answer'
  | 'not_configured'
  | 'busy';

/**
 * One failed text or code model call. `message` is the provider's own where
 * it gave one (never the key); `retryable` says whether another attempt
 * may succeed: a refusal (4xx, a refusal message, a content filter) never
 * does.
 */
export class TextApiCallError extends Error {
  constructor(
    readonly code: TextFailureCode,
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'TextApiCallError';
  }
}
