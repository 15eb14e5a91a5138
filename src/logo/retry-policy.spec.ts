import {
  backoffMs,
  delayBeforeRetry,
  isRetryableStatus,
  parseRetryAfter,
  type RetrySettings,
} from './retry-policy';

const settings: RetrySettings = {
  maxRetries: 2,
  baseMs: 1000,
  maxMs: 10000,
  retryAfterCapMs: 30000,
};

describe('retry policy', () => {
  it('retries 429 and every 5xx', () => {
    for (const status of [429, 500, 502, 503, 504, 599]) {
      expect(isRetryableStatus(status)).toBe(true);
    }
  });

  it('never retries another 4xx', () => {
    for (const status of [400, 401, 403, 404, 408, 409, 413, 422, 451]) {
      expect(isRetryableStatus(status)).toBe(false);
    }
  });

  it('doubles the backoff with each retry, jitter within the upper half of the step', () => {
    const low = () => 0;
    const high = () => 1;
    expect([0, 1, 2].map((i) => backoffMs(i, settings, low))).toEqual([
      500, 1000, 2000,
    ]);
    expect([0, 1, 2].map((i) => backoffMs(i, settings, high))).toEqual([
      1000, 2000, 4000,
    ]);
  });

  it('caps the backoff at the maximum', () => {
    expect(backoffMs(10, settings, () => 1)).toBe(10000);
    expect(backoffMs(10, settings, () => 0)).toBe(5000);
  });

  it('reads Retry-After in seconds', () => {
    expect(parseRetryAfter('0')).toBe(0);
    expect(parseRetryAfter(' 7 ')).toBe(7000);
  });

  it('reads Retry-After as an HTTP date', () => {
    const now = Date.parse('Sun, 22 Nov 2026 03:00:00 GMT');
    expect(parseRetryAfter('Sun, 22 Nov 2026 03:00:12 GMT', now)).toBe(12000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 02:59:00 GMT', now)).toBe(0);
  });

  it('ignores a missing or unreadable Retry-After', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('-3')).toBeUndefined();
    expect(parseRetryAfter('2026-11-22')).toBeUndefined();
  });

  it('waits the upstream Retry-After instead of the backoff', () => {
    expect(delayBeforeRetry(0, 2500, settings, () => 1)).toBe(2500);
    expect(delayBeforeRetry(0, 0, settings, () => 1)).toBe(0);
  });

  it('caps a long Retry-After', () => {
    expect(delayBeforeRetry(0, 3_600_000, settings)).toBe(30000);
  });

  it('backs off when there is no Retry-After', () => {
    expect(delayBeforeRetry(1, undefined, settings, () => 0)).toBe(1000);
  });
});
