import { ConfigurationError, loadConfiguration } from './environment';

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

const SIGNING_KEY = 'a-test-signing-key-of-at-least-32-chars';

/** Kept logos' defaults: bytes in the database, URLs unsigned. */
const DEFAULT_ASSETS = {
  store: { type: 'database' },
  maxPerProject: 20,
  urlTtlSeconds: 3600,
  urlSigningKey: undefined,
};

describe('loadConfiguration', () => {
  it('uses the documented defaults when nothing is set', () => {
    expect(loadConfiguration(PRODUCTION)).toEqual({
      port: 3000,
      host: '127.0.0.1',
      database: { type: 'sqlite', file: './data/workspace.db' },
      migrationsRun: true,
      bodyLimitBytes: 1024 * 1024,
      patchLengthLimits: false,
      logLevel: 'info',
      logFormat: 'json',
      corsOrigins: undefined,
      shutdownTimeoutMs: 25000,
      listIdleTimeoutMs: 30000,
      listMaxDurationMs: 120000,
      listClientLimit: 2,
      largeBodies: { permits: 4, waitMs: 3000, readTimeoutMs: 10_000 },
      imageApi: {
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
      },
      logoRateLimit: { limit: 60, windowSeconds: 60 },
      projectCreateRateLimit: { limit: 0, windowSeconds: 60 },
      redis: {
        url: undefined,
        keyPrefix: 'workspace-api:',
        commandTimeoutMs: 200,
      },
      trustProxy: false,
      idempotencyTtlSeconds: 86400,
      logoUrlTtlSeconds: 3600,
      publicBaseUrl: undefined,
      auth: { mode: 'none' },
      assets: DEFAULT_ASSETS,
    });
  });

  it('reads nothing from process.env when given an environment', () => {
    const saved = process.env.PORT;
    process.env.PORT = '4321';
    try {
      expect(loadConfiguration(PRODUCTION).port).toBe(3000);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });

  it('defaults DATABASE_URL to a private in-memory database under NODE_ENV=test', () => {
    expect(loadConfiguration({ NODE_ENV: 'test' }).database).toEqual({
      type: 'sqlite',
      file: ':memory:',
    });
  });

  it('reads AUTH_MODE=oidc with its defaults: RS256, ES256, EdDSA; sub; 5 s of clock tolerance', () => {
    expect(
      loadConfiguration({
        ...PRODUCTION,
        AUTH_MODE: 'OIDC',
        AUTH_ISSUER: 'https://auth.example.com/realms/w',
        AUTH_AUDIENCE: 'workspace-api',
        ASSET_URL_SIGNING_KEY: SIGNING_KEY,
      }).auth,
    ).toEqual({
      mode: 'oidc',
      issuer: 'https://auth.example.com/realms/w',
      audience: 'workspace-api',
      jwksUrl: undefined,
      algorithms: ['RS256', 'ES256', 'EdDSA'],
      clockToleranceSeconds: 5,
      userClaim: 'sub',
      adminRole: undefined,
      rolesClaim: 'roles',
      jwksCooldownSeconds: 30,
    });
  });

  it.each(['none', 'HS256', 'RS256,hs512'])(
    'refuses AUTH_ALGORITHMS=%s: only asymmetric algorithms',
    (algorithms) => {
      expect(() =>
        loadConfiguration({
          ...PRODUCTION,
          AUTH_MODE: 'oidc',
          AUTH_ISSUER: 'https://auth.example.com',
          AUTH_AUDIENCE: 'a',
          AUTH_ALGORITHMS: algorithms,
        }),
      ).toThrow(/AUTH_ALGORITHMS/);
    },
  );

  it('refuses an IDEMPOTENCY_TTL_S outside 1 s to 30 days', () => {
    expect(() =>
      loadConfiguration({ ...PRODUCTION, IDEMPOTENCY_TTL_S: '0' }),
    ).toThrow(/IDEMPOTENCY_TTL_S/);
  });

  it('reads the values that are set', () => {
    expect(
      loadConfiguration({
        ...PRODUCTION,
        PORT: '8080',
        HOST: '0.0.0.0',
        DATABASE_URL: 'file:/var/lib/workspace/db.sqlite',
        MIGRATIONS_RUN: 'false',
        BODY_LIMIT: '2mb',
        PATCH_LENGTH_LIMITS: 'true',
        LOG_LEVEL: 'DEBUG',
        IMAGE_API_KEY: 'sk-test',
        IMAGE_API_URL: 'http://127.0.0.1:9999/v1/images/generations',
        IMAGE_MODEL: 'other-model',
        IMAGE_API_TIMEOUT_MS: '1500',
        IDEMPOTENCY_TTL_S: '3600',
        IMAGE_QUALITY: 'HIGH',
        IMAGE_RESPONSE_FORMAT: 'b64_json',
        IMAGE_MAX_BYTES: '5mb',
        LOGO_URL_TTL_S: '600',
        PUBLIC_BASE_URL: 'https://api.example.com/workspace/',
      }),
    ).toEqual({
      port: 8080,
      host: '0.0.0.0',
      database: { type: 'sqlite', file: '/var/lib/workspace/db.sqlite' },
      migrationsRun: false,
      bodyLimitBytes: 2 * 1024 * 1024,
      patchLengthLimits: true,
      logLevel: 'debug',
      logFormat: 'json',
      corsOrigins: undefined,
      shutdownTimeoutMs: 25000,
      listIdleTimeoutMs: 30000,
      listMaxDurationMs: 120000,
      listClientLimit: 2,
      largeBodies: { permits: 4, waitMs: 3000, readTimeoutMs: 10_000 },
      imageApi: {
        key: 'sk-test',
        url: 'http://127.0.0.1:9999/v1/images/generations',
        model: 'other-model',
        quality: 'high',
        responseFormat: 'b64_json',
        maxImageBytes: 5 * 1024 * 1024,
        timeoutMs: 1500,
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
      logoRateLimit: { limit: 60, windowSeconds: 60 },
      projectCreateRateLimit: { limit: 0, windowSeconds: 60 },
      redis: {
        url: undefined,
        keyPrefix: 'workspace-api:',
        commandTimeoutMs: 200,
      },
      trustProxy: false,
      idempotencyTtlSeconds: 3600,
      logoUrlTtlSeconds: 600,
      publicBaseUrl: 'https://api.example.com/workspace',
      auth: { mode: 'none' },
      assets: DEFAULT_ASSETS,
    });
  });

  it('treats a blank IMAGE_API_KEY as not configured', () => {
    expect(
      loadConfiguration({ ...PRODUCTION, IMAGE_API_KEY: '   ' }).imageApi.key,
    ).toBeUndefined();
  });

  it('treats a blank variable as unset', () => {
    const config = loadConfiguration({ ...PRODUCTION, PORT: ' ', HOST: '' });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
  });

  it('maps file::memory: to a private in-memory SQLite database', () => {
    expect(
      loadConfiguration({ ...PRODUCTION, DATABASE_URL: 'file::memory:' })
        .database,
    ).toEqual({ type: 'sqlite', file: ':memory:' });
  });

  it.each([
    'postgres://user:pass@db:5432/workspace',
    'postgresql://user:pass@db:5432/workspace',
  ])('maps %s to PostgreSQL with the URL as given', (url) => {
    expect(
      loadConfiguration({ ...PRODUCTION, DATABASE_URL: url }).database,
    ).toEqual({
      type: 'postgres',
      url,
      poolSize: 10,
      ssl: false,
      connectTimeoutMs: 5000,
      statementTimeoutMs: 10000,
      listPoolSize: 5,
    });
  });

  it('reads the PostgreSQL pool, TLS and timeout settings', () => {
    expect(
      loadConfiguration({
        ...PRODUCTION,
        DATABASE_URL: 'postgres://db/workspace',
        DATABASE_POOL_SIZE: '25',
        DATABASE_SSL: 'true',
        DATABASE_CONNECT_TIMEOUT_MS: '2000',
        DATABASE_STATEMENT_TIMEOUT_MS: '3000',
        DATABASE_LIST_POOL_SIZE: '3',
      }).database,
    ).toEqual({
      type: 'postgres',
      url: 'postgres://db/workspace',
      poolSize: 25,
      ssl: true,
      connectTimeoutMs: 2000,
      statementTimeoutMs: 3000,
      listPoolSize: 3,
    });
  });

  it.each([
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_SSL', 'sometimes'],
    ['DATABASE_CONNECT_TIMEOUT_MS', 'soon'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '-5'],
    ['DATABASE_LIST_POOL_SIZE', '0'],
  ])('rejects %s=%s with a message naming it', (name, value) => {
    expect(() =>
      loadConfiguration({
        ...PRODUCTION,
        DATABASE_URL: 'postgres://db/workspace',
        [name]: value,
      }),
    ).toThrow(new RegExp(`^Invalid configuration: ${name} `));
  });

  it('reads BODY_LIMIT 512kb as 524288 bytes', () => {
    expect(
      loadConfiguration({ ...PRODUCTION, BODY_LIMIT: '512kb' }).bodyLimitBytes,
    ).toBe(524288);
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
  ])('rejects %s=%s with a ConfigurationError naming it', (name, value) => {
    const error = configurationErrorOf({ [name]: value });
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain(name);
    expect(error.message.split('\n')).toHaveLength(1);
  });

  it('defaults LOG_LEVEL to silent under NODE_ENV=test, so test output stays readable', () => {
    expect(loadConfiguration({ NODE_ENV: 'test' }).logLevel).toBe('silent');
    expect(
      loadConfiguration({ NODE_ENV: 'test', LOG_LEVEL: 'info' }).logLevel,
    ).toBe('info');
  });

  it('reads LOG_FORMAT=pretty and SHUTDOWN_TIMEOUT_MS', () => {
    const config = loadConfiguration({
      ...PRODUCTION,
      LOG_FORMAT: 'Pretty',
      SHUTDOWN_TIMEOUT_MS: '5000',
    });
    expect(config.logFormat).toBe('pretty');
    expect(config.shutdownTimeoutMs).toBe(5000);
  });

  it('reads LIST_MAX_DURATION_MS and LIST_CLIENT_LIMIT', () => {
    const config = loadConfiguration({
      ...PRODUCTION,
      LIST_MAX_DURATION_MS: '60000',
      LIST_CLIENT_LIMIT: '5',
    });
    expect(config.listMaxDurationMs).toBe(60000);
    expect(config.listClientLimit).toBe(5);
  });

  it('reads LIST_IDLE_TIMEOUT_MS', () => {
    expect(
      loadConfiguration({ ...PRODUCTION, LIST_IDLE_TIMEOUT_MS: '1500' })
        .listIdleTimeoutMs,
    ).toBe(1500);
  });

  it('reads CORS_ORIGINS as * or a list of origins', () => {
    expect(
      loadConfiguration({ ...PRODUCTION, CORS_ORIGINS: '*' }).corsOrigins,
    ).toBe('*');
    expect(
      loadConfiguration({
        ...PRODUCTION,
        CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
      }).corsOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:5173']);
  });

  it('echoes an unsupported DATABASE_URL without the password it may hold', () => {
    const error = configurationErrorOf({
      DATABASE_URL: 'mysql://admin:hunter2@db.internal/x',
    });
    expect(error.message).toContain('DATABASE_URL');
    expect(error.message).toContain('mysql://***@db.internal/x');
    expect(error.message).not.toContain('hunter2');
  });
});
