/**
 * When a failed upstream call is tried again, and how long to wait first.
 * Pure functions: the retry loop (RetryingImageApi) applies them.
 */

export interface RetrySettings {
  /** Retries after the first call. */
  maxRetries: number;
  /** The backoff before the first retry; it doubles for each one after. */
  baseMs: number;
  /** No backoff is longer than this. */
  maxMs: number;
  /** An upstream Retry-After longer than this is shortened to it. */
  retryAfterCapMs: number;
}

/**
 * 429 (rate limited) and 5xx (the service's own trouble) may pass on another
 * try. Any other 4xx says the request itself is wrong: sending it again
 * would fail again, and might be billed again.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Exponential backoff with "equal jitter": half of the exponential step for
 * sure, the other half at random. The sure half keeps the wait growing; the
 * random half keeps many instances that failed together from retrying
 * together.
 */
export function backoffMs(
  retryIndex: number,
  settings: Pick<RetrySettings, 'baseMs' | 'maxMs'>,
  random: () => number = Math.random,
): number {
  const step = Math.min(settings.maxMs, settings.baseMs * 2 ** retryIndex);
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * A Retry-After header in milliseconds: delay-seconds or an HTTP date
 * (RFC 9110 §10.2.3). Undefined when absent or unreadable; a date in the
 * past is 0.
 */
export function parseRetryAfter(
  value: string | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Date.parse also reads many non-HTTP formats; an HTTP date names a weekday.
  if (!/^[A-Za-z]{3},/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait before retry number `retryIndex + 1`. */
export function delayBeforeRetry(
  retryIndex: number,
  retryAfterMs: number | undefined,
  settings: RetrySettings,
  random: () => number = Math.random,
): number {
  // The upstream knows best when it will take calls again, but a long or
  // hostile value must not hold the request: it is capped.
  if (retryAfterMs !== undefined) {
    return Math.min(retryAfterMs, settings.retryAfterCapMs);
  }
  return backoffMs(retryIndex, settings, random);
}
