import { limitsConfig } from './limits.config';

describe('limits configuration', () => {
  it('uses the documented defaults when nothing is set', () => {
    expect(limitsConfig({})).toEqual({
      bodyLimitBytes: 1024 * 1024,
      largeBodies: {
        permits: 4,
        waitMs: 3000,
        readTimeoutMs: 10_000,
        minBytesPerSecond: 1024,
        minRateGraceMs: 2000,
      },
      listIdleTimeoutMs: 30000,
      listMaxDurationMs: 120000,
      listClientLimit: 2,
    });
  });

  it('reads BODY_LIMIT 512kb as 524288 bytes and 2mb as 2 MiB', () => {
    expect(limitsConfig({ BODY_LIMIT: '512kb' }).bodyLimitBytes).toBe(524288);
    expect(limitsConfig({ BODY_LIMIT: '2mb' }).bodyLimitBytes).toBe(
      2 * 1024 * 1024,
    );
  });

  it('reads the large-body and list settings', () => {
    expect(
      limitsConfig({
        LARGE_BODY_PERMITS: '2',
        LARGE_BODY_WAIT_MS: '500',
        LARGE_BODY_READ_TIMEOUT_MS: '2000',
        LARGE_BODY_MIN_BYTES_PER_S: '0',
        LARGE_BODY_MIN_RATE_GRACE_MS: '5000',
        LIST_IDLE_TIMEOUT_MS: '1500',
        LIST_MAX_DURATION_MS: '60000',
        LIST_CLIENT_LIMIT: '5',
      }),
    ).toEqual({
      bodyLimitBytes: 1024 * 1024,
      largeBodies: {
        permits: 2,
        waitMs: 500,
        readTimeoutMs: 2000,
        minBytesPerSecond: 0,
        minRateGraceMs: 5000,
      },
      listIdleTimeoutMs: 1500,
      listMaxDurationMs: 60000,
      listClientLimit: 5,
    });
  });

  it.each([
    ['BODY_LIMIT', 'lots'],
    ['BODY_LIMIT', '0'],
    ['LARGE_BODY_PERMITS', '65'],
    ['LARGE_BODY_MIN_BYTES_PER_S', '-1'],
    ['LARGE_BODY_MIN_RATE_GRACE_MS', '10'],
    ['LIST_IDLE_TIMEOUT_MS', '0'],
    ['LIST_MAX_DURATION_MS', '0'],
    ['LIST_CLIENT_LIMIT', '0'],
  ])('refuses %s=%s with one line naming it', (name, value) => {
    expect(() => limitsConfig({ [name]: value })).toThrow(
      new RegExp(`^Invalid configuration: ${name} must be`),
    );
  });
});
