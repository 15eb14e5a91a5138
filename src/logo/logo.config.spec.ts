import { ConfigurationError } from '../environment/env-values';
import { logoConfig } from './logo.config';

/** The settings of logo generation in production. */

function refusal(env: Record<string, string>): ConfigurationError {
  try {
    logoConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('logo configuration', () => {
  it('uses the documented defaults when nothing is set', () => {
    expect(logoConfig({})).toEqual({
      imageApi: {
        key: undefined,
        url: 'https://api.openai.com/v1/images/generations',
        model: 'dall-e-3',
        provider: 'openai-compatible',
        fallbackModels: [],
        modelsCheckIntervalSeconds: 21600,
        quality: 'auto',
        responseFormat: 'url',
        maxImageBytes: 6 * 1024 * 1024,
        maxImagePixels: 4096 * 4096,
        timeoutMs: 60000,
        maxRetries: 2,
        deadlineMs: 120000,
        retryBaseMs: 1000,
        retryMaxMs: 10000,
        retryAfterCapMs: 30000,
        concurrency: 8,
        queueLimit: 100,
        busyRetryAfterSeconds: 10,
        clientLimit: 4,
      },
      rateLimit: { limit: 60, windowSeconds: 60 },
      urlTtlSeconds: 3600,
    });
  });

  it('reads the values that are set', () => {
    expect(
      logoConfig({
        IMAGE_API_KEY: 'sk-test',
        IMAGE_API_URL: 'http://127.0.0.1:9999/v1/images/generations',
        IMAGE_MODEL: 'other-model',
        IMAGE_QUALITY: 'HIGH',
        IMAGE_RESPONSE_FORMAT: 'b64_json',
        IMAGE_MAX_BYTES: '5mb',
        IMAGE_MAX_PIXELS: '4194304',
        IMAGE_API_TIMEOUT_MS: '1500',
        IMAGE_API_MAX_RETRIES: '5',
        IMAGE_API_DEADLINE_MS: '30000',
        IMAGE_API_RETRY_BASE_MS: '250',
        IMAGE_API_RETRY_MAX_MS: '4000',
        IMAGE_API_RETRY_AFTER_CAP_MS: '9000',
        IMAGE_API_CONCURRENCY: '4',
        IMAGE_API_QUEUE_LIMIT: '0',
        IMAGE_API_BUSY_RETRY_AFTER_S: '3',
        IMAGE_API_CLIENT_LIMIT: '2',
        LOGO_RATE_LIMIT: '0',
        LOGO_RATE_WINDOW_S: '3600',
        LOGO_URL_TTL_S: '600',
        IMAGE_PROVIDER: 'OpenAI',
        IMAGE_FALLBACK_MODELS: ' gpt-image-2.5-sunburst, ,gpt-image-2 ',
        IMAGE_MODELS_CHECK_INTERVAL_S: '0',
      }),
    ).toEqual({
      imageApi: {
        key: 'sk-test',
        url: 'http://127.0.0.1:9999/v1/images/generations',
        model: 'other-model',
        provider: 'openai',
        fallbackModels: ['gpt-image-2.5-sunburst', 'gpt-image-2'],
        modelsCheckIntervalSeconds: 0,
        quality: 'high',
        responseFormat: 'b64_json',
        maxImageBytes: 5 * 1024 * 1024,
        maxImagePixels: 2048 * 2048,
        timeoutMs: 1500,
        maxRetries: 5,
        deadlineMs: 30000,
        retryBaseMs: 250,
        retryMaxMs: 4000,
        retryAfterCapMs: 9000,
        concurrency: 4,
        queueLimit: 0,
        busyRetryAfterSeconds: 3,
        clientLimit: 2,
      },
      rateLimit: { limit: 0, windowSeconds: 3600 },
      urlTtlSeconds: 600,
    });
  });

  it('treats a blank IMAGE_API_KEY as not configured', () => {
    expect(logoConfig({ IMAGE_API_KEY: '   ' }).imageApi.key).toBeUndefined();
  });

  it.each([
    ['IMAGE_API_TIMEOUT_MS', '0'],
    ['IMAGE_API_MAX_RETRIES', '11'],
    ['IMAGE_API_MAX_RETRIES', '-1'],
    ['IMAGE_API_DEADLINE_MS', '0'],
    ['IMAGE_API_RETRY_BASE_MS', 'fast'],
    ['IMAGE_API_RETRY_MAX_MS', '1.5'],
    ['IMAGE_API_RETRY_AFTER_CAP_MS', '3600001'],
    ['IMAGE_API_CONCURRENCY', '0'],
    ['IMAGE_API_QUEUE_LIMIT', '100001'],
    ['IMAGE_API_BUSY_RETRY_AFTER_S', '0'],
    ['IMAGE_API_CLIENT_LIMIT', '0'],
    ['LOGO_RATE_LIMIT', 'sixty'],
    ['LOGO_RATE_WINDOW_S', '0'],
    ['LOGO_URL_TTL_S', '0'],
    ['IMAGE_MODELS_CHECK_INTERVAL_S', '-1'],
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    const error = refusal({ [name]: value });
    expect(error.message).toMatch(
      new RegExp(`^Invalid configuration: ${name} must be an integer from`),
    );
    expect(error.message).toContain(`(got "${value}")`);
    expect(error.message).not.toContain('\n');
  });

  it.each([
    ['IMAGE_API_URL', 'ftp://x'],
    ['IMAGE_API_URL', 'not-a-url'],
    ['IMAGE_QUALITY', 'standard'],
    ['IMAGE_RESPONSE_FORMAT', 'png'],
    ['IMAGE_MAX_BYTES', 'huge'],
    ['IMAGE_MAX_PIXELS', '16777217'],
    ['IMAGE_PROVIDER', 'stability'],
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    const error = refusal({ [name]: value });
    expect(error.message).toMatch(
      new RegExp(`^Invalid configuration: ${name} `),
    );
    expect(error.message).not.toContain('\n');
  });
});
