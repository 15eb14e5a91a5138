import { registerAs } from '@nestjs/config';
import {
  boolean,
  byteSize,
  ConfigurationError,
  httpUrl,
  integer,
  oneOf,
  read,
  type Env,
} from '../environment/env-values';
import { MAX_DECODED_PIXELS } from '../image-store/image-dimensions';

export const ASSET_STORES = ['database', 's3'] as const;

/** In the database (the default) or in an S3-compatible bucket. */
export type AssetStoreConfig = { type: 'database' } | S3StoreConfig;

export interface S3StoreConfig {
  type: 's3';
  bucket: string;
  /** An S3-compatible endpoint; undefined = AWS S3 itself. */
  endpoint: string | undefined;
  region: string;
  /** Bucket in the path, not the host name (MinIO and most local servers). */
  forcePathStyle: boolean;
  /** Prepended to every object key; always ends with `/` (or is empty). */
  prefix: string;
  /** An object no row names is deleted once it is this old. */
  sweepGraceSeconds: number;
  /** Giving up opening a connection to the bucket. */
  connectTimeoutMs: number;
  /**
   * Giving up one S3 call (retries included) that has not answered: a
   * write, a delete or a listing page; for a read, until its bytes start.
   */
  requestTimeoutMs: number;
}

/** Kept logos: where their bytes live and how their URLs work. */
export interface AssetsConfig {
  store: AssetStoreConfig;
  /** Assets one project may hold; one more is refused with 409. */
  maxPerProject: number;
  /**
   * How long a signed asset URL works (AUTH_MODE=oidc); at most an hour,
   * so a leaked URL stops working within one.
   */
  urlTtlSeconds: number;
  /** The HMAC key of signed asset URLs; set with AUTH_MODE=oidc. */
  urlSigningKey: string | undefined;
  /** Renditions (…/content?size=N) still to be made: their line's bounds. */
  renditions: RenditionLineLimits;
  /** A team's own image, uploaded to POST /api/projects/{id}/logos. */
  upload: UploadLimits;
}

/** What one uploaded image may be. */
export interface UploadLimits {
  /** The file's bytes; one more is refused with 413. */
  maxBytes: number;
  /** width × height of a PNG, JPEG or WebP (by its header); more is 400. */
  maxPixels: number;
}

/**
 * Renditions waiting to be made, per instance (503 beyond) and per client
 * (its user, or its address without auth: 429 beyond).
 */
export interface RenditionLineLimits {
  queueLimit: number;
  clientLimit: number;
}

/** The shortest signing key accepted: 256 bits of base64 or hex text. */
const MIN_SIGNING_KEY_LENGTH = 32;

export const assetsConfig = registerAs(
  'assets',
  (env: Env = process.env): AssetsConfig => {
    // AUTH_MODE itself is validated with auth.
    const oidc = read(env, 'AUTH_MODE')?.toLowerCase() === 'oidc';
    const urlSigningKey = read(env, 'ASSET_URL_SIGNING_KEY');
    if (oidc && urlSigningKey === undefined) {
      throw new ConfigurationError(
        'ASSET_URL_SIGNING_KEY',
        'must be set when AUTH_MODE=oidc',
      );
    }
    if (
      urlSigningKey !== undefined &&
      urlSigningKey.length < MIN_SIGNING_KEY_LENGTH
    ) {
      // Never echo the value: it is a secret.
      throw new ConfigurationError(
        'ASSET_URL_SIGNING_KEY',
        `must be at least ${MIN_SIGNING_KEY_LENGTH} characters`,
      );
    }
    return {
      store: assetStore(env),
      maxPerProject: integer(env, 'ASSET_MAX_PER_PROJECT', 20, 1, 1000),
      urlTtlSeconds: integer(env, 'ASSET_URL_TTL_S', 3600, 60, 3600),
      urlSigningKey,
      renditions: {
        queueLimit: integer(env, 'RENDITION_QUEUE_LIMIT', 64, 1, 10_000),
        clientLimit: integer(env, 'RENDITION_CLIENT_LIMIT', 16, 1, 10_000),
      },
      upload: {
        maxBytes: uploadMaxBytes(env),
        // At most what renditions decode, so every kept image renders.
        maxPixels: integer(
          env,
          'ASSET_UPLOAD_MAX_PIXELS',
          MAX_DECODED_PIXELS,
          1,
          MAX_DECODED_PIXELS,
        ),
      },
    };
  },
);

/**
 * The largest upload held: an upload is read into memory whole (to tell
 * its type and size from its bytes), so the ceiling bounds what a few
 * uploads at once can take of the pod's memory.
 */
export const UPLOAD_MAX_BYTES_CEILING = 32 * 1024 * 1024;

function uploadMaxBytes(env: Env): number {
  const bytes = byteSize(env, 'ASSET_UPLOAD_MAX_BYTES', 5 * 1024 * 1024);
  if (bytes > UPLOAD_MAX_BYTES_CEILING) {
    throw new ConfigurationError(
      'ASSET_UPLOAD_MAX_BYTES',
      `must be at most ${UPLOAD_MAX_BYTES_CEILING / (1024 * 1024)}mb`,
    );
  }
  return bytes;
}

function assetStore(env: Env): AssetStoreConfig {
  const type = oneOf(env, 'ASSET_STORE', ASSET_STORES, 'database');
  if (type === 'database') return { type };
  const bucket = read(env, 'ASSET_S3_BUCKET');
  if (bucket === undefined) {
    throw new ConfigurationError(
      'ASSET_S3_BUCKET',
      'must be set when ASSET_STORE=s3',
    );
  }
  return {
    type,
    bucket,
    endpoint:
      read(env, 'ASSET_S3_ENDPOINT') === undefined
        ? undefined
        : httpUrl(env, 'ASSET_S3_ENDPOINT', ''),
    region: read(env, 'ASSET_S3_REGION') ?? 'us-east-1',
    forcePathStyle: boolean(env, 'ASSET_S3_FORCE_PATH_STYLE', false),
    prefix: folderPrefix(read(env, 'ASSET_S3_PREFIX') ?? 'assets/'),
    sweepGraceSeconds: integer(
      env,
      'ASSET_S3_SWEEP_GRACE_S',
      900,
      60,
      7 * 86_400,
    ),
    connectTimeoutMs: integer(
      env,
      'ASSET_S3_CONNECT_TIMEOUT_MS',
      3000,
      100,
      60_000,
    ),
    requestTimeoutMs: integer(
      env,
      'ASSET_S3_REQUEST_TIMEOUT_MS',
      20_000,
      500,
      300_000,
    ),
  };
}

/**
 * A key prefix as a folder: `logos` becomes `logos/`, so that listing it
 * (and the sweep) never reaches `logos-archive/…`.
 */
function folderPrefix(prefix: string): string {
  return prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
}
