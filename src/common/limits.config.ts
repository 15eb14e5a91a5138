import { registerAs, type ConfigType } from '@nestjs/config';
import { byteSize, integer, type Env } from '../environment/env-values';

/** What one request may hold: body sizes, body reads, streamed lists. */
export const limitsConfig = registerAs('limits', (env: Env = process.env) => ({
  bodyLimitBytes: byteSize(env, 'BODY_LIMIT', 1024 * 1024),
  /**
   * Large request bodies (over 64 KB, or chunked): how many are read at once
   * per instance, how long one waits for its turn, and how long its bytes
   * may take once it has one.
   */
  largeBodies: {
    permits: integer(env, 'LARGE_BODY_PERMITS', 4, 1, 64),
    waitMs: integer(env, 'LARGE_BODY_WAIT_MS', 3000, 1, 60_000),
    readTimeoutMs: integer(
      env,
      'LARGE_BODY_READ_TIMEOUT_MS',
      10_000,
      100,
      300_000,
    ),
    /**
     * Once its turn came, a large body that has arrived slower than this
     * (bytes a second, averaged from the start) after
     * LARGE_BODY_MIN_RATE_GRACE_MS is cut with 408: a client trickling
     * bytes gives its permit back within seconds. 0: no floor.
     */
    minBytesPerSecond: integer(
      env,
      'LARGE_BODY_MIN_BYTES_PER_S',
      1024,
      0,
      1_000_000_000,
    ),
    minRateGraceMs: integer(
      env,
      'LARGE_BODY_MIN_RATE_GRACE_MS',
      2000,
      100,
      60_000,
    ),
  },
  /**
   * A streamed list whose client reads nothing for this long is cut off, so
   * a stalled client cannot hold a snapshot (and its connection) forever.
   */
  listIdleTimeoutMs: integer(env, 'LIST_IDLE_TIMEOUT_MS', 30000, 1, 3_600_000),
  /**
   * A streamed list still running after this long is cut off, however fast
   * its client reads, so no list holds a snapshot (and its connection) longer.
   */
  listMaxDurationMs: integer(
    env,
    'LIST_MAX_DURATION_MS',
    120_000,
    1,
    3_600_000,
  ),
  /** Streamed lists one client (a user, or an address without auth) may run at once. */
  listClientLimit: integer(env, 'LIST_CLIENT_LIMIT', 2, 1, 1000),
}));

export type LimitsConfig = ConfigType<typeof limitsConfig>;
