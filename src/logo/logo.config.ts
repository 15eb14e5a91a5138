import { registerAs, type ConfigType } from '@nestjs/config';
import {
  byteSize,
  commaList,
  httpUrl,
  integer,
  oneOf,
  read,
  type Env,
} from '../environment/env-values';
import { IMAGE_PROVIDERS } from './providers/image-providers';
import { MAX_DECODED_PIXELS } from '../image-store/image-dimensions';

export const IMAGE_QUALITIES = ['low', 'medium', 'high', 'auto'] as const;
export type ImageQuality = (typeof IMAGE_QUALITIES)[number];

export const IMAGE_RESPONSE_FORMATS = ['url', 'b64_json'] as const;
export type ImageResponseFormat = (typeof IMAGE_RESPONSE_FORMATS)[number];

/**
 * The largest base64 image kept, and the upstream calls in flight: sized
 * together so that every call answering the largest image at once fits the
 * Deployment's 512 MiB with room to spare (docs/operations.md, "Memory").
 */
export const DEFAULT_IMAGE_MAX_BYTES = 6 * 1024 * 1024;
export const DEFAULT_IMAGE_API_CONCURRENCY = 8;

/** Logo generation: the upstream image API, its limits, hosted logos. */
export const logoConfig = registerAs('logo', (env: Env = process.env) => ({
  imageApi: imageApi(env),
  rateLimit: {
    /** Upstream-bound requests per client and window; 0 = no limit. */
    limit: integer(env, 'LOGO_RATE_LIMIT', 60, 0, 1_000_000),
    windowSeconds: integer(env, 'LOGO_RATE_WINDOW_S', 60, 1, 86_400),
  },
  /** How long a hosted logo (from a base64 answer) can be loaded. */
  urlTtlSeconds: integer(env, 'LOGO_URL_TTL_S', 3600, 1, 7 * 86_400),
}));

export type LogoConfig = ConfigType<typeof logoConfig>;
export type ImageApiConfig = LogoConfig['imageApi'];

// Long on purpose: one declarative list of the image API's settings, each
// with its variable, default and bounds.
function imageApi(env: Env) {
  return {
    /** Unset or blank means "not configured" (logo generation answers 500). */
    key: read(env, 'IMAGE_API_KEY'),
    url: httpUrl(
      env,
      'IMAGE_API_URL',
      'https://api.openai.com/v1/images/generations',
    ),
    model: read(env, 'IMAGE_MODEL') ?? 'dall-e-3',
    /** The request and answer shapes spoken (providers/image-providers.ts). */
    provider: oneOf(
      env,
      'IMAGE_PROVIDER',
      IMAGE_PROVIDERS,
      'openai-compatible',
    ),
    /** Tried in order when the provider says a model does not exist. */
    fallbackModels: commaList(env, 'IMAGE_FALLBACK_MODELS'),
    /** How often the provider's model list is read; 0 = never. */
    modelsCheckIntervalSeconds: integer(
      env,
      'IMAGE_MODELS_CHECK_INTERVAL_S',
      6 * 3600,
      0,
      30 * 86_400,
    ),
    /** GPT image models' `quality` (low, medium, high or auto). */
    quality: oneOf(env, 'IMAGE_QUALITY', IMAGE_QUALITIES, 'auto'),
    /**
     * The answer format asked of other models: url (the default, the
     * documented request) or b64_json (the service then hosts the image).
     */
    responseFormat: oneOf(
      env,
      'IMAGE_RESPONSE_FORMAT',
      IMAGE_RESPONSE_FORMATS,
      'url',
    ),
    /** The largest decoded image kept from a base64 answer. */
    maxImageBytes: byteSize(env, 'IMAGE_MAX_BYTES', DEFAULT_IMAGE_MAX_BYTES),
    /**
     * The most pixels (width × height, by the image's header) an answered
     * image may have to be hosted or kept. At most what renditions decode
     * (their sharp pixel limit), so every kept image can be rendered.
     */
    maxImagePixels: integer(
      env,
      'IMAGE_MAX_PIXELS',
      MAX_DECODED_PIXELS,
      1,
      MAX_DECODED_PIXELS,
    ),
    /** One upstream call. */
    timeoutMs: integer(env, 'IMAGE_API_TIMEOUT_MS', 60000, 1, 3_600_000),
    /** Retries after the first call, for 429, 5xx, timeouts, lost connections. */
    maxRetries: integer(env, 'IMAGE_API_MAX_RETRIES', 2, 0, 10),
    /** Queue wait, every call and every backoff of one request together. */
    deadlineMs: integer(env, 'IMAGE_API_DEADLINE_MS', 120000, 1, 3_600_000),
    retryBaseMs: integer(env, 'IMAGE_API_RETRY_BASE_MS', 1000, 0, 600_000),
    retryMaxMs: integer(env, 'IMAGE_API_RETRY_MAX_MS', 10000, 0, 3_600_000),
    /** The longest upstream Retry-After that is honoured as given. */
    retryAfterCapMs: integer(
      env,
      'IMAGE_API_RETRY_AFTER_CAP_MS',
      30000,
      0,
      3_600_000,
    ),
    /** Upstream calls in flight at once in this process. */
    concurrency: integer(
      env,
      'IMAGE_API_CONCURRENCY',
      DEFAULT_IMAGE_API_CONCURRENCY,
      1,
      1000,
    ),
    /** Requests waiting for a call slot; one more is refused with 503. */
    queueLimit: integer(env, 'IMAGE_API_QUEUE_LIMIT', 100, 0, 100_000),
    busyRetryAfterSeconds: integer(
      env,
      'IMAGE_API_BUSY_RETRY_AFTER_S',
      10,
      1,
      3600,
    ),
    /** One client's requests in flight or waiting; one more is refused with 429. */
    clientLimit: integer(env, 'IMAGE_API_CLIENT_LIMIT', 4, 1, 100_000),
  };
}
