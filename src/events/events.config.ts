import { registerAs, type ConfigType } from '@nestjs/config';
import { integer, type Env } from '../environment/env-values';

/**
 * Live changes (GET /api/events, GET /api/projects/{id}/events): how long
 * the change log keeps events for resuming streams, and what one client and
 * one instance may hold open.
 */
export const eventsConfig = registerAs('events', (env: Env = process.env) => ({
  /** Events are kept this long; a stream resuming from older gets `reset`. */
  retentionSeconds: integer(env, 'EVENTS_RETENTION_S', 86_400, 1, 2_592_000),
  /** Open streams per client (its user, or its address without auth): 429 beyond. */
  clientLimit: integer(env, 'EVENTS_CLIENT_LIMIT', 10, 1, 10_000),
  /** Open streams per instance: 503 beyond, so the client tries another replica. */
  instanceLimit: integer(env, 'EVENTS_INSTANCE_LIMIT', 5_000, 1, 1_000_000),
  /**
   * Unsent bytes a stream may hold for a client that stops reading; past
   * it the stream is cut (the client resumes with Last-Event-ID).
   */
  bufferLimitBytes: integer(
    env,
    'EVENTS_BUFFER_LIMIT_BYTES',
    262_144,
    4_096,
    67_108_864,
  ),
  /**
   * How long a replay waits for a client that takes nothing (the replay
   * goes at the client's pace); past it the stream is cut.
   */
  replayStallSeconds: integer(env, 'EVENTS_REPLAY_STALL_S', 10, 1, 300),
  /** A comment this often keeps proxies from closing an idle stream. */
  heartbeatSeconds: integer(env, 'EVENTS_HEARTBEAT_S', 15, 1, 300),
  /**
   * How often the log is read when no notification came: the most a lost
   * PostgreSQL notification can delay an event.
   */
  pollMs: integer(env, 'EVENTS_POLL_MS', 1_000, 50, 60_000),
  /**
   * Events a second one client (across its streams) may replay when
   * resuming; a deeper replay is paced to it, never refused.
   */
  replayRatePerSecond: integer(env, 'EVENTS_REPLAY_RATE', 2_000, 10, 1_000_000),
  /**
   * Unscoped streams (every project's events) without a proven caller
   * (AUTH_MODE=none): at most this many per address...
   */
  unscopedAddressLimit: integer(
    env,
    'EVENTS_UNSCOPED_ADDRESS_LIMIT',
    2,
    0,
    10_000,
  ),
  /** ...and this many per network (/24 IPv4, /64 IPv6): 429 beyond. */
  unscopedNetworkLimit: integer(
    env,
    'EVENTS_UNSCOPED_NETWORK_LIMIT',
    20,
    0,
    1_000_000,
  ),
}));

export type EventsConfig = ConfigType<typeof eventsConfig>;
