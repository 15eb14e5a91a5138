import { ApiMultipartBody } from '../docs/multipart-body.openapi';
import { PROJECT_ID_PARAM } from '../docs/project-id-param.openapi';
import {
  UPLOAD_FILE_FIELD,
  UPLOAD_NAME_FIELD,
} from './uploaded-logo.interceptor';
import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiExtraModels,
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  ApiImageBytes,
  LOGO_MEDIA_TYPES,
} from '../docs/image-response.openapi';
import {
  ApiIdempotencyKey,
  ApiIfMatch,
  ETAG_HEADER,
  locationHeader,
  REPLAYED_HEADER,
} from '../docs/conditional-headers.openapi';
import { RETRY_AFTER_HEADER } from '../failures/error-responses.dto';
import {
  ApiAuth,
  ApiBodyFailures,
  ApiFailure,
  ApiInvalidInput,
  ApiRetryLater,
  ApiRouteFailure,
} from '../failures/failure-responses.openapi';
import {
  KEY_MISSING_MESSAGE,
  LOGO_BUSY_MESSAGE,
  LOGO_GENERIC_FAILURE,
  LOGO_RATE_LIMITED_MESSAGE,
  LOGO_STYLES,
} from '../logo/logo.constants';
import {
  AssetResponseDto,
  DeleteAssetResponseDto,
} from './dto/asset-responses.dto';
import { KeepLogoDto } from './dto/keep-logo.dto';
import { KeepPreviewedLogoDto } from './dto/keep-previewed-logo.dto';
import { ASSET_EXAMPLE } from './dto/asset.dto';
import { ASSET_STORAGE_UNAVAILABLE_MESSAGE } from './assets.errors';

/**
 * The OpenAPI description of each asset route, one composite decorator per
 * route. Asset routes fail with `{error}`, as the project routes do.
 */

const ASSET_ID_PARAM = ApiParam({
  name: 'assetId',
  description: 'The asset id',
  schema: { type: 'string', example: ASSET_EXAMPLE.id },
});
const ASSET_NOT_FOUND = ApiFailure(
  'error',
  404,
  'Asset not found',
  'No asset with this id in this project (or no such project)',
);

// Long on purpose: one operation's whole OpenAPI description (body,
// every answer and header), declared in one place as a list.
export const KeepLogoEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary:
        "Keep a logo (a new one, or the one previewed) as an asset of the project's LOGO section",
      description:
        "Either the logo request of POST /api/ai/generate-logo without projectId, through the same line, rate limit, deadline and retries (the image model is always asked for the image itself); or `{logoUrl}`, a logo URL POST /api/ai/generate-logo answered that this service hosts, kept byte for byte with no call to the image model (any other URL: 400; expired: 404 `Logo not found`); or, as `multipart/form-data`, the team's own image in the `file` part (no model is called; `model` is `uploaded`, `prompt` empty). With CORS_ORIGINS set, an upload must carry Authorization or Idempotency-Key (headers only a CORS preflight lets a page send), else 415. The project is checked (404) and its room (409) before the image model is called. The bytes (PNG, JPEG or WebP, at most IMAGE_MAX_BYTES) are kept in the database or an S3-compatible bucket (ASSET_STORE); the asset then shows in GET /api/projects/{id} and counts in `_count.assets`. The answer carries the project's new ETag.",
      operationId: 'keepLogo',
    }),
    PROJECT_ID_PARAM,
    ApiExtraModels(KeepLogoDto, KeepPreviewedLogoDto),
    ApiBody({
      schema: {
        oneOf: [
          { $ref: getSchemaPath(KeepLogoDto) },
          { $ref: getSchemaPath(KeepPreviewedLogoDto) },
        ],
      },
      examples: {
        logo: {
          summary: 'A logo request: a new logo is generated',
          value: {
            companyName: 'Acme',
            style: 'modern',
            colors: ['#0044ff', 'white'],
            industry: 'logistics',
          },
        },
        previewed: {
          summary: 'The logo previewed: kept as it is, nothing generated',
          value: {
            logoUrl:
              'https://api.example.com/api/ai/logos/9f2c4e1ab37d40c58e0f6a2b1c3d4e5f.png',
          },
        },
      },
    }),
    ApiMultipartBody({
      schema: {
        type: 'object',
        required: [UPLOAD_FILE_FIELD],
        properties: {
          [UPLOAD_FILE_FIELD]: {
            type: 'string',
            format: 'binary',
            description:
              "The team's own logo: PNG, JPEG, WebP or SVG, told from its bytes (the part's Content-Type is ignored), at most ASSET_UPLOAD_MAX_BYTES (413 `file_too_large`) and, a raster, ASSET_UPLOAD_MAX_PIXELS pixels (400 `too_many_pixels`); anything else is 415 `unsupported_image_type`. An SVG is rebuilt from an allow-list (no script, event handlers, foreignObject, animation or external references) and served with a sandboxing Content-Security-Policy; one that cannot be is 400 `svg_unsafe`.",
          },
          [UPLOAD_NAME_FIELD]: {
            type: 'string',
            maxLength: 1024,
            description:
              "The asset's fileName (made safe, with the extension of the real type); default: the file part's own name.",
            example: 'acme-logo.png',
          },
        },
      },
    }),
    ApiResponse({
      status: 201,
      description:
        'The kept logo (or, with `Idempotent-Replayed: true`, the answer first given for this Idempotency-Key; a signed url in it may have expired since: GET the asset for a fresh one)',
      type: AssetResponseDto,
      headers: {
        ...locationHeader(
          'the asset (and deleted)',
          '/api/projects/{id}/assets/{assetId}',
        ),
        ...ETAG_HEADER,
        ...REPLAYED_HEADER,
      },
      example: { asset: ASSET_EXAMPLE },
    }),
    ApiInvalidInput(
      'error',
      'A validation rule failed (checked before anything else), or, without PUBLIC_BASE_URL, the Host header is not a host. An upload: `invalid_upload` (no `file` part, a second file, too many parts or fields), `too_many_pixels` (over ASSET_UPLOAD_MAX_PIXELS, or a header whose size cannot be read), `svg_unsafe` (an SVG that cannot be made safe)',
      {
        path: ['style'],
        message: `Invalid enum value. Expected ${LOGO_STYLES.map((s) => `'${s}'`).join(' | ')}`,
        code: 'invalid_enum_value',
      },
      { upload: true },
    ),
    ApiBodyFailures('error', { upload: true }),
    ApiFailure(
      'error',
      404,
      'Project not found',
      "No project with this id (of the caller's, with AUTH_MODE=oidc); or, keeping a previewed logo, `Logo not found`: its URL has expired (LOGO_URL_TTL_S)",
    ),
    ApiRetryLater(
      'error',
      429,
      LOGO_RATE_LIMITED_MESSAGE,
      'The client is over its logo rate limit (LOGO_RATE_LIMIT per LOGO_RATE_WINDOW_S), shared with POST /api/ai/generate-logo',
    ),
    ApiRouteFailure(
      'error',
      LOGO_GENERIC_FAILURE,
      'Generation failed, worded as POST /api/ai/generate-logo words it: the key is missing, the upstream error message, an invalid upstream response (an answer that is not a PNG, JPEG or WebP, or over IMAGE_MAX_BYTES), a timeout or the deadline, an unreachable upstream',
      { exposePublicErrors: true, example: KEY_MISSING_MESSAGE },
    ),
    ApiIdempotencyKey('error'),
    // After ApiIdempotencyKey: one 409 documents both of its causes.
    ApiFailure(
      'error',
      409,
      'The project already holds 20 assets, the most it may; delete one first',
      'The project already holds ASSET_MAX_PER_PROJECT assets (nothing was generated); or the first request with this Idempotency-Key is still being processed (with Retry-After)',
      RETRY_AFTER_HEADER,
    ),
    ApiAuth('error', 'required', {
      error: LOGO_BUSY_MESSAGE,
      description:
        'This instance\'s line of logo requests is full (IMAGE_API_QUEUE_LIMIT); or, with `code: "asset_storage_unavailable"` and the text "Asset storage is unavailable; try again shortly", the asset bucket (ASSET_STORE=s3) refused or did not answer within ASSET_S3_REQUEST_TIMEOUT_MS: checked before the image model is paid, and if it fails after, a retry with the same Idempotency-Key stores the paid image without paying again',
    }),
  );

export const GetAssetEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'One asset of a project',
      description:
        'The asset with a url made for this answer (signed with AUTH_MODE=oidc).',
      operationId: 'getAsset',
    }),
    PROJECT_ID_PARAM,
    ASSET_ID_PARAM,
    ApiResponse({
      status: 200,
      description: 'The asset',
      type: AssetResponseDto,
      example: { asset: ASSET_EXAMPLE },
    }),
    ASSET_NOT_FOUND,
    ApiRouteFailure('error', 'Failed to read asset', 'The read failed'),
    ApiAuth('error', 'required'),
  );

export const DeleteAssetEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Delete one asset of a project, and its bytes',
      description:
        "Afterwards the asset's url no longer serves the bytes. The project's version (its ETag) moves on.",
      operationId: 'deleteAsset',
    }),
    PROJECT_ID_PARAM,
    ASSET_ID_PARAM,
    ApiResponse({
      status: 200,
      description: 'Deleted',
      headers: ETAG_HEADER,
      type: DeleteAssetResponseDto,
      example: { success: true },
    }),
    ApiFailure(
      'error',
      404,
      'Asset not found',
      'No such asset in the project ("Asset not found"), or no such project of the caller\'s ("Project not found")',
    ),
    ApiRouteFailure('error', 'Failed to delete asset', 'The delete failed'),
    ApiIfMatch('delete'),
    ApiAuth('error', 'required'),
  );

const CONTENT_HEADERS = {
  'Cache-Control': {
    description:
      '`public, max-age=31536000, immutable` for a stable URL; for a signed one `private, max-age=<seconds until it expires>, immutable`',
    schema: { type: 'string', example: 'public, max-age=31536000, immutable' },
  },
  ETag: {
    description: 'The SHA-256 of the bytes, as a strong entity tag',
    schema: { type: 'string', example: `"${ASSET_EXAMPLE.sha256}"` },
  },
  'X-Content-Type-Options': {
    description: '`nosniff`',
    schema: { type: 'string', enum: ['nosniff'] },
  },
};

export const GetAssetContentEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: "An asset's bytes: its url",
      description:
        'Loads in an <img> on any origin without headers. Needs no bearer token: without authentication the URL is stable; with AUTH_MODE=oidc it must carry the expiry and signature of an answer the caller was allowed to see, and stops working when it expires (within ASSET_URL_TTL_S, at most an hour).',
      operationId: 'getAssetContent',
    }),
    PROJECT_ID_PARAM,
    ASSET_ID_PARAM,
    ApiQuery({
      name: 'expires',
      required: false,
      description:
        'With AUTH_MODE=oidc: when the URL stops working (epoch seconds)',
      schema: { type: 'string' },
    }),
    ApiQuery({
      name: 'signature',
      required: false,
      description: "With AUTH_MODE=oidc: the URL's signature",
      schema: { type: 'string' },
    }),
    ApiQuery({
      name: 'size',
      required: false,
      description:
        'A square PNG rendition instead of the kept bytes (the image contained, transparent padding), in the sizes of a fixed ladder: 16, 24, 32, 48, 64, 96, 128, 180, 192, 256, 512 and 1024 pixels a side; any other size from 16 to 1024 is answered with the next step up. Made once per asset and step and kept. PNG, JPEG, WebP and SVG assets (an SVG is drawn with bundled fonts only), and wireframes (their preview, drawn by the service); others: 400. With AUTH_MODE=oidc the URL must still carry its expiry and signature.',
      schema: { type: 'integer', minimum: 16, maximum: 1024, example: 32 },
    }),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'The ETag of an earlier answer: 304 without a body',
      schema: { type: 'string', example: `"${ASSET_EXAMPLE.sha256}"` },
    }),
    ApiInvalidInput(
      'error',
      '`size` is not an integer from 16 to 1024, or the asset is not a PNG, JPEG or WebP image or a wireframe (`size` is then named with code "custom")',
      {
        path: ['size'],
        message: 'Number must be less than or equal to 1024',
        code: 'too_big',
      },
    ),
    ApiImageBytes(
      {
        ok: 'The bytes, exactly as they were kept (a landing page or marketing copy as text/html or application/json, served sandboxed), or with `size` a PNG rendition',
        notModified: 'Not modified: the ETag sent is these bytes (no body)',
      },
      CONTENT_HEADERS,
      [...LOGO_MEDIA_TYPES, 'image/x-icon'],
    ),
    ApiFailure(
      'error',
      403,
      'This asset URL has expired or is not valid',
      'With AUTH_MODE=oidc: the URL has no valid signature, or it has expired; a fresh answer holding the asset has a working one',
    ),
    ASSET_NOT_FOUND,
    ApiRouteFailure(
      'error',
      'Failed to read asset',
      'The bytes could not be read',
    ),
    ApiRetryLater(
      'error',
      503,
      ASSET_STORAGE_UNAVAILABLE_MESSAGE,
      'The asset bucket (ASSET_STORE=s3) refused or did not start sending the bytes within ASSET_S3_REQUEST_TIMEOUT_MS; the body also has `code: "asset_storage_unavailable"`. With `size`: also when RENDITION_QUEUE_LIMIT renditions are waiting to be made on this instance (`{error:"Image renditions are busy; try again shortly", code:"busy"}`)',
    ),
    ApiRetryLater(
      'error',
      429,
      'Too many image renditions of this client are being made; try again shortly',
      'With `size`: this client already waits for RENDITION_CLIENT_LIMIT renditions to be made on this instance (stored ones are always served); the body also has `code: "rate_limited"`',
    ),
    ApiAuth('error', 'public'),
  );
