import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiResponse } from '@nestjs/swagger';
import {
  BodyValidationErrorResponseDto,
  ErrorResponseDto,
  LogoErrorResponseDto,
  LogoValidationErrorResponseDto,
  RETRY_AFTER_HEADER,
  ValidationErrorResponseDto,
  UploadRefusalResponseDto,
} from './error-responses.dto';
import { defaultCodeOf, type ErrorCode } from './error-codes';
import { UNREADABLE_BODY_MESSAGE } from './unreadable-body.error';
import { FailureMessage } from './failure-message.decorator';

/**
 * The failure answers routes share, documented once for both envelopes:
 * `{error}` (project routes) and `{success:false, error}` (the logo
 * routes). A route's composite decorator (`<feature>.openapi.ts`) picks
 * the ones it can answer.
 */

/** `error`: `{error}`; `success-flag`: `{success:false, error}`. */
export type Envelope = 'error' | 'success-flag';

/**
 * Who may call a route when AUTH_MODE=oidc: `public` needs no token (a
 * hosted logo's URL is its own capability), `required` needs a valid
 * bearer token, `names-a-user` also refuses a request that names another
 * user (403).
 */
export type RouteAuth = 'public' | 'required' | 'names-a-user';

/**
 * The OpenAPI extension that tells document finishing who may call the
 * operation; finishing turns it into the operation's `security` (which
 * depends on AUTH_MODE) and removes it.
 */
export const AUTH_EXTENSION = 'x-workspace-auth';

/**
 * The code of a documented text that is not its status's general one
 * (defaultCodeOf), so that each example shows the code sent with it.
 */
const CODE_OF_TEXT: Record<string, ErrorCode> = {
  'Project not found': 'project_not_found',
  'Task not found': 'task_not_found',
  'Asset not found': 'asset_not_found',
  'Section not found': 'section_not_found',
  'Logo not found': 'logo_not_found',
  'A request with this Idempotency-Key is still being processed':
    'idempotency_key_in_use',
  'This asset URL has expired or is not valid': 'asset_url_refused',
  'Asset storage is unavailable; try again shortly':
    'asset_storage_unavailable',
  'Authentication is temporarily unavailable': 'auth_unavailable',
  'This asset is not a result of this section': 'not_a_result_of_section',
  'No result of this section is chosen': 'nothing_chosen',
  'A task is running for this section; choose a result once it has finished':
    'section_in_progress',
  [UNREADABLE_BODY_MESSAGE]: 'invalid_json',
};

const exampleCode = (status: number, error: string): ErrorCode =>
  CODE_OF_TEXT[error] ??
  (/^The project already holds \d+ assets/.test(error)
    ? 'asset_limit_reached'
    : /^The task has already finished/.test(error)
      ? 'task_finished'
      : defaultCodeOf(status));

/** A failure body in the envelope's shape, with its code, as an example. */
export const failureBody = (
  envelope: Envelope,
  error: string,
  code: ErrorCode = 'internal_error',
) => (envelope === 'error' ? { error, code } : { success: false, error, code });

const errorType = (envelope: Envelope) =>
  envelope === 'error' ? ErrorResponseDto : LogoErrorResponseDto;

type Headers = Record<string, { description: string; schema: object }>;

/** One failure with a fixed text, in the route's envelope. */
export function ApiFailure(
  envelope: Envelope,
  status: number,
  error: string,
  description: string,
  headers?: Headers,
) {
  return ApiResponse({
    status,
    description,
    type: errorType(envelope),
    ...(headers ? { headers } : {}),
    example: failureBody(envelope, error, exampleCode(status, error)),
  });
}

/** A failure the client may retry after Retry-After seconds (429, 503). */
export const ApiRetryLater = (
  envelope: Envelope,
  status: 429 | 503,
  error: string,
  description: string,
) => ApiFailure(envelope, status, error, description, RETRY_AFTER_HEADER);

/**
 * The route's own 500: documented with its text, and that text is the one
 * the exception filter sends for a failure the route does not explain.
 * `exposePublicErrors`: a failure that explains itself (PublicError) is
 * sent with its own text instead, so the example may show one of those.
 */
export function ApiRouteFailure(
  envelope: Envelope,
  message: string,
  description: string,
  options: {
    exposePublicErrors?: boolean;
    example?: string;
    /**
     * A body that is not JSON is a 400 (UNREADABLE_BODY_MESSAGE), not this
     * 500: the route documents that 400 (ApiInvalidInput's `unreadableBody`,
     * or its own).
     */
    unreadableBodyIsClientError?: boolean;
  } = {},
) {
  return applyDecorators(
    ApiFailure(envelope, 500, options.example ?? message, description),
    FailureMessage(message, {
      envelope,
      exposePublicErrors: options.exposePublicErrors ?? false,
      unreadableBodyIsClientError: options.unreadableBodyIsClientError,
    }),
  );
}

/**
 * 400: a validation rule failed; one issue per failed rule. With
 * `unreadableBody` (a route whose ApiRouteFailure has
 * unreadableBodyIsClientError), also a body that is not JSON, answered
 * `{error:"Request body is not valid JSON"}` without details.
 */
export function ApiInvalidInput(
  envelope: Envelope,
  description: string,
  issue: { path: (string | number)[]; message: string; code: string },
  options: { unreadableBody?: boolean; upload?: boolean } = {},
) {
  const type = options.upload
    ? UploadRefusalResponseDto
    : options.unreadableBody
      ? BodyValidationErrorResponseDto
      : ValidationErrorResponseDto;
  return ApiResponse({
    status: 400,
    description,
    type: envelope === 'error' ? type : LogoValidationErrorResponseDto,
    example: {
      ...failureBody(envelope, 'Invalid input', 'invalid_input'),
      details: [issue],
    },
  });
}

/**
 * 413, 408 and 415: what reading a JSON body can refuse. `optionalBody`:
 * the route takes a request without a body (@OptionalBody), which none of
 * these refuse. `upload`: the route also takes a file
 * (multipart/form-data), refused with its own codes.
 */
export function ApiBodyFailures(
  envelope: Envelope,
  options: { optionalBody?: boolean; upload?: boolean } = {},
) {
  return applyDecorators(
    ApiFailure(
      envelope,
      413,
      'Request body is too large',
      options.upload
        ? 'The body is larger than BODY_LIMIT (default 1 MB); an uploaded file larger than ASSET_UPLOAD_MAX_BYTES is `file_too_large`'
        : 'The body is larger than BODY_LIMIT (default 1 MB)',
    ),
    ApiFailure(
      envelope,
      408,
      'Request body was not received in time',
      'A body over 64 KB did not arrive within LARGE_BODY_READ_TIMEOUT_MS (default 10 s) of its turn to be read (large bodies are read a few at a time, one per client); the connection is closed',
    ),
    ApiFailure(
      envelope,
      415,
      'Unsupported media type',
      options.optionalBody
        ? 'CORS_ORIGINS is set, a body is sent (a Content-Length over 0, or Transfer-Encoding), and its Content-Type is one a browser sends without a CORS preflight (text/plain, application/x-www-form-urlencoded, multipart/form-data) or none. A request without a body needs no Content-Type'
        : options.upload
          ? 'CORS_ORIGINS is set and the Content-Type is one a browser sends without a CORS preflight (text/plain, application/x-www-form-urlencoded, or multipart/form-data without Authorization or Idempotency-Key) or none; or an uploaded file that is not a PNG, JPEG, WebP or SVG by its bytes (`unsupported_image_type`)'
          : 'CORS_ORIGINS is set and the Content-Type is one a browser sends without a CORS preflight (text/plain, application/x-www-form-urlencoded, multipart/form-data) or none',
    ),
  );
}

const KEYS_UNAVAILABLE =
  "With AUTH_MODE=oidc: the OpenID Provider's keys cannot be fetched and none are cached";

/**
 * Who may call the route, and the answers of authentication
 * (AUTH_MODE=oidc): 401, 403 for a route whose request can name a user,
 * and 503 when the provider's keys cannot be had. Documented in every
 * mode, so that a client generated from either server's document knows
 * them. `unavailable` is the route's own 503, if it has one: both causes
 * are then one answer.
 */
export function ApiAuth(
  envelope: Envelope,
  auth: RouteAuth,
  unavailable?: { error: string; description: string },
) {
  if (auth === 'public') return ApiExtension(AUTH_EXTENSION, auth);
  const decorators = [
    ApiExtension(AUTH_EXTENSION, auth),
    ApiResponse({
      status: 401,
      description:
        'With AUTH_MODE=oidc: no bearer token, or one that is malformed, expired, wrongly signed or for another audience',
      headers: {
        'WWW-Authenticate': {
          description: 'Bearer realm="workspace-api"[, error="invalid_token"]',
          schema: { type: 'string' },
        },
      },
      type: errorType(envelope),
      example: failureBody(envelope, 'Unauthorized', 'unauthorized'),
    }),
    unavailable
      ? ApiRetryLater(
          envelope,
          503,
          unavailable.error,
          `${unavailable.description}; or ${KEYS_UNAVAILABLE.charAt(0).toLowerCase()}${KEYS_UNAVAILABLE.slice(1)}`,
        )
      : ApiResponse({
          status: 503,
          description: KEYS_UNAVAILABLE,
          headers: {
            'Retry-After': {
              description: 'Seconds to wait before sending the request again',
              schema: { type: 'integer', example: 5 },
            },
          },
          type: errorType(envelope),
          example: failureBody(
            envelope,
            'Authentication is temporarily unavailable',
            'auth_unavailable',
          ),
        }),
  ];
  if (auth === 'names-a-user') {
    decorators.push(
      ApiFailure(
        envelope,
        403,
        'Forbidden',
        'With AUTH_MODE=oidc: the request names another user (userId), or a PATCH would hand the project to one',
      ),
    );
  }
  return applyDecorators(...decorators);
}
