import {
  ConfigurationError,
  ConfigurationErrors,
} from '../src/environment/env-values';
import { CONFIGURATION, loadConfiguration } from './configuration';

/** Outside Jest's NODE_ENV=test, as the production process runs. */
const PRODUCTION = { NODE_ENV: 'production' };

function configurationErrorOf(env: Record<string, string>): Error {
  try {
    loadConfiguration({ ...PRODUCTION, ...env });
  } catch (error) {
    return error as Error;
  }
  throw new Error(`loadConfiguration accepted ${JSON.stringify(env)}`);
}

describe('loadConfiguration (every feature slice at once)', () => {
  it('uses the documented defaults when nothing is set', () => {
    expect(loadConfiguration(PRODUCTION)).toEqual({
      process: { port: 3000, host: '127.0.0.1', shutdownTimeoutMs: 25000 },
      database: {
        connection: { type: 'sqlite', file: './data/workspace.db' },
        migrationsRun: true,
      },
      limits: {
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
      },
      logging: {
        logLevel: 'info',
        logFormat: 'json',
        scrubbedKey: undefined,
        scrubbedModelKeys: [],
      },
      events: {
        retentionSeconds: 86400,
        clientLimit: 10,
        instanceLimit: 5000,
        bufferLimitBytes: 262144,
        heartbeatSeconds: 15,
        pollMs: 1000,
        replayStallSeconds: 10,
        replayRatePerSecond: 2_000,
        unscopedAddressLimit: 2,
        unscopedNetworkLimit: 20,
      },
      http: {
        corsOrigins: undefined,
        trustProxy: false,
        publicBaseUrl: undefined,
      },
      projects: {
        patchLengthLimits: false,
        createRateLimit: { limit: 0, windowSeconds: 60 },
      },
      logo: {
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
      },
      redis: {
        url: undefined,
        keyPrefix: 'workspace-api:',
        commandTimeoutMs: 200,
      },
      idempotency: { ttlSeconds: 86400 },
      auth: { mode: 'none' },
      assets: {
        store: { type: 'database' },
        maxPerProject: 20,
        urlTtlSeconds: 3600,
        urlSigningKey: undefined,
        renditions: { queueLimit: 64, clientLimit: 16 },
        upload: { maxBytes: 5 * 1024 * 1024, maxPixels: 4096 * 4096 },
      },
      apiDocs: { bearerAuth: false },
      tasks: {
        engine: 'auto',
        role: 'all',
        concurrency: 4,
        maxAttempts: 2,
        leaseSeconds: 10,
        retryDelayMs: 2000,
        cancelCheckMs: 500,
        maxQueuedPerProject: 10,
        maxQueuedPerUser: 25,
      },
      runs: { maxConcurrentPerUser: 2, maxFixes: 2, sweepMs: 5000 },
      sites: {
        baseUrl: 'http://localhost:3001',
        host: '127.0.0.1',
        port: 3001,
        store: 'database',
      },
      textGeneration: {
        text: {
          url: 'https://api.openai.com/v1',
          key: undefined,
          model: 'gpt-5.4-mini',
        },
        code: {
          url: 'https://api.openai.com/v1',
          key: undefined,
          model: 'gpt-5.4-mini',
        },
        deadlineMs: 120_000,
        maxAttempts: 3,
        concurrency: 4,
        clientConcurrency: 2,
      },
      usage: {
        limitPerUserDayUsd: undefined,
        limitPerProjectUsd: undefined,
        prices: {},
      },
    });
  });

  it('names each value after the slice ConfigModule registers it under', () => {
    expect(Object.keys(loadConfiguration(PRODUCTION))).toEqual(
      CONFIGURATION.map((slice) =>
        String(slice.KEY).replace(/^CONFIGURATION\((.*)\)$/, '$1'),
      ),
    );
  });

  it('reads nothing from process.env when given an environment', () => {
    const saved = process.env.PORT;
    process.env.PORT = '4321';
    try {
      expect(loadConfiguration(PRODUCTION).process.port).toBe(3000);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });

  it('gives the image-API key to the log scrubber as well as to logo generation', () => {
    const config = loadConfiguration({ ...PRODUCTION, IMAGE_API_KEY: 'sk-x' });
    expect(config.logo.imageApi.key).toBe('sk-x');
    expect(config.logging.scrubbedKey).toBe('sk-x');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'file:'],
    ['MIGRATIONS_RUN', 'maybe'],
    ['BODY_LIMIT', 'lots'],
    ['BODY_LIMIT', '0'],
    ['PATCH_LENGTH_LIMITS', 'sometimes'],
    ['LOG_LEVEL', 'loud'],
    ['LOG_FORMAT', 'xml'],
    ['SHUTDOWN_TIMEOUT_MS', 'soon'],
    ['LIST_IDLE_TIMEOUT_MS', '0'],
    ['LIST_MAX_DURATION_MS', '0'],
    ['LIST_CLIENT_LIMIT', '0'],
    ['CORS_ORIGINS', 'app.example.com'],
    ['CORS_ORIGINS', 'https://app.example.com/path'],
    ['CORS_ORIGINS', 'ftp://files.example.com'],
    ['IMAGE_API_TIMEOUT_MS', '0'],
    ['IMAGE_API_URL', 'ftp://x'],
    ['IMAGE_API_URL', 'not-a-url'],
    ['IDEMPOTENCY_TTL_S', '0'],
    ['AUTH_MODE', 'basic'],
    ['ASSET_STORE', 'disk'],
    ['REDIS_URL', 'http://cache'],
    ['RUNS_MAX_CONCURRENT_PER_USER', '0'],
    ['RUNS_MAX_FIXES', '6'],
    ['RUNS_SWEEP_MS', 'often'],
  ])(
    'rejects %s=%s with one ConfigurationError line naming it',
    (name, value) => {
      const error = configurationErrorOf({ [name]: value });
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toMatch(
        new RegExp(`^Invalid configuration: ${name} `),
      );
      expect(error.message.split('\n')).toHaveLength(1);
    },
  );

  it('reports every slice with an invalid value, one line each, in one error', () => {
    const error = configurationErrorOf({
      PORT: 'abc',
      LOG_FORMAT: 'xml',
      IMAGE_API_URL: 'ftp://x',
      DATABASE_URL: 'mysql://admin:hunter2@db/x',
    });
    expect(error).toBeInstanceOf(ConfigurationErrors);
    expect(error.message.split('\n')).toEqual([
      'Invalid configuration: PORT must be an integer from 0 to 65535 (got "abc")',
      'Invalid configuration: DATABASE_URL must be file:PATH, file::memory: or a postgres:// URL (got "mysql://***@db/x")',
      'Invalid configuration: LOG_FORMAT must be json or pretty (got "xml")',
      'Invalid configuration: IMAGE_API_URL must be an http(s) URL (got "ftp://x")',
    ]);
  });
});
