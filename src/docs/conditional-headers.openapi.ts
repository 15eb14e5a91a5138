import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { RETRY_AFTER_HEADER } from '../failures/error-responses.dto';
import {
  ApiFailure,
  type Envelope,
} from '../failures/failure-responses.openapi';

/**
 * The OpenAPI side of safe retries (Idempotency-Key) and of conditional
 * requests on projects (ETag, If-Match, If-None-Match).
 */

export const ETAG_HEADER = {
  ETag: {
    description:
      "The project's version as a strong entity tag; send it back in If-Match or If-None-Match",
    schema: { type: 'string', example: '"3"' },
  },
};

export const REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description:
      '`true` when this is the stored answer of an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
};

/**
 * `Location` of a created resource: an absolute URL on the origin the
 * body's URLs are written for (PUBLIC_BASE_URL, else the request's own).
 */
export const locationHeader = (what: string, path: string) => ({
  Location: {
    description: `Where ${what} is read: an absolute URL (PUBLIC_BASE_URL, else the scheme and host the request was sent to), \`${path}\` on it`,
    schema: {
      type: 'string',
      format: 'uri',
      example: `https://api.example.com${path.replace(/\{[^}]+\}/g, (name) => EXAMPLE_IDS[name] ?? name)}`,
    },
  },
});

const EXAMPLE_IDS: Record<string, string> = {
  '{id}': '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20',
  '{taskId}': '019aa8f2-6a00-7c3e-9a51-3c1f5d0b8e21',
  '{assetId}': '019aa8f2-7b00-7c3e-9a51-3c1f5d0b8e22',
  '{runId}': '019aa8f6-0a1b-7c2d-8e3f-4a5b6c7d8e9f',
};

/** The header, and the 409 and 422 it can bring, in the route's envelope. */
export function ApiIdempotencyKey(envelope: Envelope) {
  return applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes a retry safe: the first request with a key is processed, and a later one with the same key and body (within IDEMPOTENCY_TTL_S) gets the same answer without the work being done again. 1 to 255 printable ASCII characters, unique per operation; a malformed or repeated key is a 400.',
      schema: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        pattern: '^[ -~]+$',
        example: '3f1c2a9e-5b7d-4e8f-9a61-0c2d4b6e8f10',
      },
    }),
    ApiFailure(
      envelope,
      409,
      'A request with this Idempotency-Key is still being processed',
      'The first request with this Idempotency-Key is still being processed',
      RETRY_AFTER_HEADER,
    ),
    ApiFailure(
      envelope,
      422,
      'This Idempotency-Key was used with a different request body',
      'This Idempotency-Key was first used with a different request body',
    ),
  );
}

/** If-None-Match on GET: 304 when the client's copy is current. */
export function ApiIfNoneMatch() {
  return applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description:
        'An ETag from an earlier answer (or `*`): 304 without a body while the project is unchanged',
      schema: { type: 'string', example: '"3"' },
    }),
    ApiResponse({
      status: 304,
      description: 'Not modified: the ETag sent is still current (no body)',
      headers: ETAG_HEADER,
    }),
  );
}

/** If-Match on PATCH and DELETE: 412 when the project has moved on. */
export function ApiIfMatch(operation: 'update' | 'delete') {
  return applyDecorators(
    ApiHeader({
      name: 'If-Match',
      required: false,
      description: `Only ${operation} while the project is at this ETag (\`*\`: while it exists). Otherwise 412 and nothing changes; without the header, the ${operation} is unconditional.`,
      schema: { type: 'string', example: '"3"' },
    }),
    ApiFailure(
      'error',
      412,
      'Precondition failed',
      'If-Match did not name the current version (or the project does not exist): nothing changed',
    ),
  );
}
