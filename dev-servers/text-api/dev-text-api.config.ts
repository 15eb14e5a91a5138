import {
  ConfigurationError,
  integer,
  optionalInteger,
  read,
  type Env,
} from '../../src/environment/env-values';

/** How the dev text API (`npm run text-api:dev`) answers by default. */
export const DEV_TEXT_REPLIES = [
  'answer',
  'error',
  'refusal',
  'invalid',
  'not-json',
  'reset',
  'hostile-svg',
] as const;
export type DevTextReplyKind = (typeof DEV_TEXT_REPLIES)[number];

export interface DevTextApiConfig {
  port: number;
  reply: DevTextReplyKind;
  /** Status of 'error' replies (default 500). */
  status: number | undefined;
  errorMessage: string | undefined;
  latencyMs: number;
  retryAfterSeconds: number | undefined;
  /**
   * Where hostile SVG answers try to reach (TEXT_DEV_BEACON_URL): a server
   * that must never be called. Default: an address nothing listens on.
   */
  beaconUrl: string;
}

/** The local stand-in for the text and code models: a development tool. */
export function loadDevTextApiConfiguration(
  env: Env = process.env,
): DevTextApiConfig {
  const reply = read(env, 'TEXT_DEV_REPLY')?.toLowerCase() ?? 'answer';
  if (!(DEV_TEXT_REPLIES as readonly string[]).includes(reply)) {
    throw new ConfigurationError(
      'TEXT_DEV_REPLY',
      `must be one of ${DEV_TEXT_REPLIES.join(', ')} (got "${reply}")`,
    );
  }
  return {
    port: integer(env, 'TEXT_DEV_PORT', 4030, 0, 65535),
    reply: reply as DevTextReplyKind,
    status: optionalInteger(env, 'TEXT_DEV_STATUS', 100, 599),
    errorMessage: read(env, 'TEXT_DEV_ERROR_MESSAGE'),
    latencyMs: integer(env, 'TEXT_DEV_LATENCY_MS', 0, 0, 3_600_000),
    beaconUrl: read(env, 'TEXT_DEV_BEACON_URL') ?? 'http://127.0.0.1:9/beacon',
    retryAfterSeconds: optionalInteger(
      env,
      'TEXT_DEV_RETRY_AFTER_S',
      0,
      86_400,
    ),
  };
}
