import { assetsConfig } from './assets.config';

const OIDC = {
  AUTH_MODE: 'oidc',
  AUTH_ISSUER: 'https://auth.example.com',
  AUTH_AUDIENCE: 'workspace-api',
};
const KEY = 'k'.repeat(32);

describe('kept logos configuration', () => {
  it('keeps bytes in the database by default, 20 assets per project, URLs unsigned and valid an hour', () => {
    expect(assetsConfig({})).toEqual({
      store: { type: 'database' },
      maxPerProject: 20,
      urlTtlSeconds: 3600,
      renditions: { queueLimit: 64, clientLimit: 16 },
      urlSigningKey: undefined,
      upload: { maxBytes: 5 * 1024 * 1024, maxPixels: 4096 * 4096 },
    });
  });

  it('reads the upload limits, and refuses a size over 32mb or pixels over what renditions decode', () => {
    expect(
      assetsConfig({
        ASSET_UPLOAD_MAX_BYTES: '2mb',
        ASSET_UPLOAD_MAX_PIXELS: '1048576',
      }).upload,
    ).toEqual({ maxBytes: 2 * 1024 * 1024, maxPixels: 1_048_576 });
    expect(() => assetsConfig({ ASSET_UPLOAD_MAX_BYTES: '33mb' })).toThrow(
      /ASSET_UPLOAD_MAX_BYTES/,
    );
    expect(() => assetsConfig({ ASSET_UPLOAD_MAX_BYTES: 'big' })).toThrow(
      /ASSET_UPLOAD_MAX_BYTES/,
    );
    expect(() =>
      assetsConfig({ ASSET_UPLOAD_MAX_PIXELS: String(4096 * 4096 + 1) }),
    ).toThrow(/ASSET_UPLOAD_MAX_PIXELS/);
  });

  it('reads an S3 store with its defaults: us-east-1, virtual-hosted style, prefix assets/, a 15-minute sweep grace', () => {
    expect(
      assetsConfig({ ASSET_STORE: 'S3', ASSET_S3_BUCKET: 'logos' }).store,
    ).toEqual({
      type: 's3',
      bucket: 'logos',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
      prefix: 'assets/',
      sweepGraceSeconds: 900,
      connectTimeoutMs: 3000,
      requestTimeoutMs: 20_000,
    });
    expect(
      assetsConfig({
        ASSET_STORE: 's3',
        ASSET_S3_BUCKET: 'logos',
        ASSET_S3_ENDPOINT: 'http://127.0.0.1:9000',
        ASSET_S3_REGION: 'auto',
        ASSET_S3_FORCE_PATH_STYLE: 'true',
        ASSET_S3_PREFIX: 'prod/logos/',
        ASSET_S3_SWEEP_GRACE_S: '3600',
        ASSET_S3_CONNECT_TIMEOUT_MS: '500',
        ASSET_S3_REQUEST_TIMEOUT_MS: '4000',
      }).store,
    ).toEqual({
      type: 's3',
      bucket: 'logos',
      endpoint: 'http://127.0.0.1:9000',
      region: 'auto',
      forcePathStyle: true,
      prefix: 'prod/logos/',
      sweepGraceSeconds: 3600,
      connectTimeoutMs: 500,
      requestTimeoutMs: 4000,
    });
  });

  it('ends a prefix with a slash, so that `logos` never reaches `logos-archive/…`', () => {
    const prefixOf = (prefix: string) => {
      const store = assetsConfig({
        ASSET_STORE: 's3',
        ASSET_S3_BUCKET: 'b',
        ASSET_S3_PREFIX: prefix,
      }).store;
      return store.type === 's3' ? store.prefix : undefined;
    };
    expect(prefixOf('logos')).toBe('logos/');
    expect(prefixOf('prod/logos/')).toBe('prod/logos/');
  });

  it.each([
    [{ ASSET_STORE: 'disk' }, /ASSET_STORE must be one of database, s3/],
    [{ ASSET_STORE: 's3' }, /ASSET_S3_BUCKET must be set when ASSET_STORE=s3/],
    [
      { ASSET_STORE: 's3', ASSET_S3_BUCKET: 'b', ASSET_S3_ENDPOINT: 'ftp://x' },
      /ASSET_S3_ENDPOINT must be an http\(s\) URL/,
    ],
    [{ ASSET_MAX_PER_PROJECT: '0' }, /ASSET_MAX_PER_PROJECT/],
    [
      {
        ASSET_STORE: 's3',
        ASSET_S3_BUCKET: 'b',
        ASSET_S3_CONNECT_TIMEOUT_MS: '0',
      },
      /ASSET_S3_CONNECT_TIMEOUT_MS/,
    ],
    [
      {
        ASSET_STORE: 's3',
        ASSET_S3_BUCKET: 'b',
        ASSET_S3_REQUEST_TIMEOUT_MS: 'soon',
      },
      /ASSET_S3_REQUEST_TIMEOUT_MS/,
    ],
    // A leaked signed URL must stop working within an hour.
    [{ ASSET_URL_TTL_S: '3601' }, /ASSET_URL_TTL_S/],
    [{ ...OIDC }, /ASSET_URL_SIGNING_KEY must be set when AUTH_MODE=oidc/],
    [
      { ...OIDC, ASSET_URL_SIGNING_KEY: 'short' },
      /ASSET_URL_SIGNING_KEY must be at least 32 characters/,
    ],
  ])('refuses %j', (env, message) => {
    expect(() => assetsConfig(env)).toThrow(message);
  });

  it('never shows the signing key in its error', () => {
    expect(() =>
      assetsConfig({ ...OIDC, ASSET_URL_SIGNING_KEY: 'secret-but-short' }),
    ).toThrow(
      expect.not.objectContaining({
        message: expect.stringContaining('secret-but-short'),
      }),
    );
  });

  it('takes the signing key with AUTH_MODE=oidc', () => {
    expect(
      assetsConfig({ ...OIDC, ASSET_URL_SIGNING_KEY: KEY }).urlSigningKey,
    ).toBe(KEY);
  });
});
