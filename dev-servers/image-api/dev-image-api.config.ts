import {
  ConfigurationError,
  integer,
  optionalInteger,
  read,
  type Env,
} from '../../src/environment/env-values';

/** How the dev image API (`npm run image-api:dev`) answers by default. */
export const DEV_IMAGE_REPLIES = [
  'image',
  'error',
  'missing-url',
  'not-json',
  'reset',
  'pixel-bomb',
] as const;
export type DevImageReplyKind = (typeof DEV_IMAGE_REPLIES)[number];

export interface DevImageApiConfig {
  port: number;
  reply: DevImageReplyKind;
  /** Status of 'error' and 'not-json' replies; undefined = their default. */
  status: number | undefined;
  errorMessage: string | undefined;
  latencyMs: number;
  retryAfterSeconds: number | undefined;
}

/** The local stand-in for the image API: a development tool, not the service. */
export function loadDevImageApiConfiguration(
  env: Env = process.env,
): DevImageApiConfig {
  const reply = read(env, 'IMAGE_DEV_REPLY')?.toLowerCase() ?? 'image';
  if (!(DEV_IMAGE_REPLIES as readonly string[]).includes(reply)) {
    throw new ConfigurationError(
      'IMAGE_DEV_REPLY',
      `must be one of ${DEV_IMAGE_REPLIES.join(', ')} (got "${reply}")`,
    );
  }
  return {
    port: integer(env, 'IMAGE_DEV_PORT', 4010, 0, 65535),
    reply: reply as DevImageReplyKind,
    status: optionalInteger(env, 'IMAGE_DEV_STATUS', 100, 599),
    errorMessage: read(env, 'IMAGE_DEV_ERROR_MESSAGE'),
    latencyMs: integer(env, 'IMAGE_DEV_LATENCY_MS', 0, 0, 3_600_000),
    retryAfterSeconds: optionalInteger(
      env,
      'IMAGE_DEV_RETRY_AFTER_S',
      0,
      86_400,
    ),
  };
}
