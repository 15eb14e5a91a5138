import cors from 'cors';
import type { RequestHandler } from 'express';
import type { CorsOrigins } from './http.config';

/**
 * CORS only for the origins in CORS_ORIGINS (off when unset), allowing the
 * request headers the API reads and exposing the response headers a
 * frontend needs. helmet's headers are set by the operations middleware
 * (security-headers.ts).
 */

/**
 * Request headers a browser may send cross-origin: every request header a
 * documented feature reads. Without `Authorization` no call can carry a
 * bearer token (AUTH_MODE=oidc); the W3C trace-context headers let a
 * browser's trace continue in the service. `Last-Event-ID`: a fetch-based
 * live-change client resumes with it (the browser's own EventSource sends
 * it without a preflight; fetch, beside Authorization, preflights it).
 * Exported for the tests, which preflight each one.
 */
export const ALLOWED_HEADERS = [
  'Content-Type',
  'Authorization',
  'X-Request-Id',
  'Idempotency-Key',
  'If-Match',
  'If-None-Match',
  'Last-Event-ID',
  'traceparent',
  'tracestate',
  'baggage',
];

/**
 * Response headers a browser lets cross-origin scripts read:
 * `WWW-Authenticate` tells a 401's expired token (`invalid_token`: refresh)
 * from a missing one; `Location` names a created project.
 */
export const EXPOSED_HEADERS = [
  'Retry-After',
  'X-Request-Id',
  'ETag',
  'Idempotent-Replayed',
  'WWW-Authenticate',
  'Location',
];

/**
 * The CORS middleware for CORS_ORIGINS, or none when it is unset. Mounted by
 * PlatformModule.
 */
export function corsMiddleware(
  origins: CorsOrigins,
): RequestHandler | undefined {
  if (origins === undefined) return undefined;
  return cors({
    origin: origins === '*' ? '*' : origins,
    // PUT: a section's selection (PUT …/sections/{sectionId}/selection).
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}
