import {
  ConfigurationError,
  loadConfiguration,
  loadDevImageApiConfiguration,
} from './environment';

/**
 * The settings of logo generation in production and of the dev
 * image API. The other variables have their own spec.
 */

const PRODUCTION = { NODE_ENV: 'production' };

const load = (env: Record<string, string>) =>
  loadConfiguration({ ...PRODUCTION, ...env });

function refusal(
  env: Record<string, string>,
  loader: (env: Record<string, string>) => unknown = load,
): ConfigurationError {
  try {
    loader(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('loadConfiguration: logo generation in production', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = load({});
    expect(config.imageApi).toEqual({
      key: undefined,
      url: 'https://api.openai.com/v1/images/generations',
      model: 'dall-e-3',
      quality: 'auto',
      responseFormat: 'url',
      maxImageBytes: 6 * 1024 * 1024,
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
    });
    expect(config.logoRateLimit).toEqual({ limit: 60, windowSeconds: 60 });
    expect(config.redis).toEqual({
      url: undefined,
      keyPrefix: 'workspace-api:',
      commandTimeoutMs: 200,
    });
    expect(config.trustProxy).toBe(false);
  });

  it('reads the values that are set', () => {
    const config = load({
      IMAGE_API_MAX_RETRIES: '5',
      IMAGE_API_DEADLINE_MS: '30000',
      IMAGE_API_RETRY_BASE_MS: '250',
      IMAGE_API_RETRY_MAX_MS: '4000',
      IMAGE_API_RETRY_AFTER_CAP_MS: '9000',
      IMAGE_API_CONCURRENCY: '4',
      IMAGE_API_QUEUE_LIMIT: '0',
      IMAGE_API_BUSY_RETRY_AFTER_S: '3',
      LOGO_RATE_LIMIT: '0',
      LOGO_RATE_WINDOW_S: '3600',
      PROJECT_CREATE_RATE_LIMIT: '30',
      PROJECT_CREATE_RATE_WINDOW_S: '600',
      REDIS_URL: 'redis://:secret@redis.internal:6379/2',
      REDIS_KEY_PREFIX: 'staging:',
      REDIS_COMMAND_TIMEOUT_MS: '250',
    });
    expect(config.imageApi).toMatchObject({
      maxRetries: 5,
      deadlineMs: 30000,
      retryBaseMs: 250,
      retryMaxMs: 4000,
      retryAfterCapMs: 9000,
      concurrency: 4,
      queueLimit: 0,
      busyRetryAfterSeconds: 3,
    });
    expect(config.logoRateLimit).toEqual({ limit: 0, windowSeconds: 3600 });
    expect(config.projectCreateRateLimit).toEqual({
      limit: 30,
      windowSeconds: 600,
    });
    expect(config.redis).toEqual({
      url: 'redis://:secret@redis.internal:6379/2',
      keyPrefix: 'staging:',
      commandTimeoutMs: 250,
    });
  });

  it.each([
    ['IMAGE_API_MAX_RETRIES', '11'],
    ['IMAGE_API_MAX_RETRIES', '-1'],
    ['IMAGE_API_DEADLINE_MS', '0'],
    ['IMAGE_API_RETRY_BASE_MS', 'fast'],
    ['IMAGE_API_RETRY_MAX_MS', '1.5'],
    ['IMAGE_API_RETRY_AFTER_CAP_MS', '3600001'],
    ['IMAGE_API_CONCURRENCY', '0'],
    ['IMAGE_API_QUEUE_LIMIT', '100001'],
    ['IMAGE_API_BUSY_RETRY_AFTER_S', '0'],
    ['LOGO_RATE_LIMIT', 'sixty'],
    ['LOGO_RATE_WINDOW_S', '0'],
    ['PROJECT_CREATE_RATE_LIMIT', '-1'],
    ['PROJECT_CREATE_RATE_WINDOW_S', '0'],
    ['REDIS_COMMAND_TIMEOUT_MS', '5'],
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    const error = refusal({ [name]: value });
    expect(error.message).toMatch(
      new RegExp(`^Invalid configuration: ${name} must be an integer from`),
    );
    expect(error.message).toContain(`(got "${value}")`);
    expect(error.message).not.toContain('\n');
  });

  it('limits creates per user by default only with AUTH_MODE=oidc (120 per window); without auth it stays off, as the contract has it', () => {
    const oidc = {
      AUTH_MODE: 'oidc',
      AUTH_ISSUER: 'https://auth.example.com',
      AUTH_AUDIENCE: 'workspace-api',
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
    };
    expect(load({}).projectCreateRateLimit.limit).toBe(0);
    expect(load(oidc).projectCreateRateLimit.limit).toBe(120);
    expect(
      load({ ...oidc, PROJECT_CREATE_RATE_LIMIT: '0' }).projectCreateRateLimit
        .limit,
    ).toBe(0);
  });

  it('refuses an IMAGE_API_CLIENT_LIMIT below 1', () => {
    expect(refusal({ IMAGE_API_CLIENT_LIMIT: '0' }).message).toContain(
      'IMAGE_API_CLIENT_LIMIT',
    );
  });

  it('accepts redis:// and rediss:// URLs in REDIS_URL', () => {
    expect(load({ REDIS_URL: 'redis://127.0.0.1:6379' }).redis.url).toBe(
      'redis://127.0.0.1:6379',
    );
    expect(load({ REDIS_URL: 'rediss://cache:6380/1' }).redis.url).toBe(
      'rediss://cache:6380/1',
    );
  });

  it('refuses another REDIS_URL without echoing it (it may hold a password)', () => {
    for (const value of ['http://user:hunter2@cache:6379', 'hunter2']) {
      const error = refusal({ REDIS_URL: value });
      expect(error.message).toBe(
        'Invalid configuration: REDIS_URL must be a redis:// or rediss:// URL',
      );
      expect(error.message).not.toContain('hunter2');
    }
  });

  it('reads TRUST_PROXY as off, every hop, a hop count or a list of addresses', () => {
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(
      load({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8, 192.168.1.7' })
        .trustProxy,
    ).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.168.1.7']);
  });

  it.each(['maybe', '10.0.0.0/33', '300.1.1.1', '101', 'loopback,,'])(
    'refuses TRUST_PROXY=%s with one line naming the variable',
    (value) => {
      const error = refusal({ TRUST_PROXY: value });
      expect(error.message).toMatch(/^Invalid configuration: TRUST_PROXY /);
      expect(error.message).toContain(`(got "${value}")`);
    },
  );
});

describe('loadDevImageApiConfiguration', () => {
  it('uses the documented defaults when nothing is set', () => {
    expect(loadDevImageApiConfiguration({})).toEqual({
      port: 4010,
      reply: 'image',
      status: undefined,
      errorMessage: undefined,
      latencyMs: 0,
      retryAfterSeconds: undefined,
    });
  });

  it('reads the values that are set', () => {
    expect(
      loadDevImageApiConfiguration({
        IMAGE_DEV_PORT: '4999',
        IMAGE_DEV_REPLY: 'ERROR',
        IMAGE_DEV_STATUS: '429',
        IMAGE_DEV_ERROR_MESSAGE: 'Rate limit reached',
        IMAGE_DEV_LATENCY_MS: '15000',
        IMAGE_DEV_RETRY_AFTER_S: '2',
      }),
    ).toEqual({
      port: 4999,
      reply: 'error',
      status: 429,
      errorMessage: 'Rate limit reached',
      latencyMs: 15000,
      retryAfterSeconds: 2,
    });
  });

  it.each([
    ['IMAGE_DEV_PORT', '70000'],
    ['IMAGE_DEV_REPLY', 'explode'],
    ['IMAGE_DEV_STATUS', '99'],
    ['IMAGE_DEV_LATENCY_MS', 'slow'],
    ['IMAGE_DEV_RETRY_AFTER_S', '-5'],
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    const error = refusal({ [name]: value }, loadDevImageApiConfiguration);
    expect(error.message).toMatch(
      new RegExp(`^Invalid configuration: ${name} must be`),
    );
    expect(error.message).not.toContain('\n');
  });
});

describe('loadConfiguration: hosted logos', () => {
  it.each([
    ['IMAGE_QUALITY', 'standard'],
    ['IMAGE_RESPONSE_FORMAT', 'png'],
    ['IMAGE_MAX_BYTES', 'huge'],
    ['LOGO_URL_TTL_S', '0'],
    ['PUBLIC_BASE_URL', 'ftp://files.example.com'],
    ['PUBLIC_BASE_URL', 'https://api.example.com/?x=1'],
    ['PUBLIC_BASE_URL', 'https://user:pw@api.example.com'],
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    expect(() =>
      loadConfiguration({ NODE_ENV: 'production', [name]: value }),
    ).toThrow(new RegExp(`^Invalid configuration: ${name} `));
  });
});
