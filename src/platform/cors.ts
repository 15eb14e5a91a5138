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
 * Response headers a browser lets cross-origin scripts read, beyond the
 * CORS-safelisted ones (Cache-Control, Content-Language, Content-Length,
 * Content-Type, Expires, Last-Modified, Pragma): every other header the
 * API answers that a client acts on. A test holds this list to every
 * response header the OpenAPI document declares.
 * - `Location`: where a created project, task or kept logo is read.
 * - `ETag`: the version to send back in If-Match / If-None-Match.
 * - `Retry-After`: when a 429 or 503 may be retried.
 * - `Idempotent-Replayed`: the answer is a replay of an Idempotency-Key's.
 * - `X-Request-Id`: the id to quote in a report (it is in the logs).
 * - `WWW-Authenticate`: tells a 401's expired token (`invalid_token`:
 *   refresh) from a missing one.
 * - `Content-Disposition`: the brand kit's file name.
 * - `X-Total-Count`: the matches of a project list asked to count them.
 * - `RateLimit`, `RateLimit-Policy`: the IETF rate-limit fields
 *   (draft-ietf-httpapi-ratelimit-headers), for limits that announce
 *   their quota; the 429s carry Retry-After either way.
 */
export const EXPOSED_HEADERS = [
  'Location',
  'ETag',
  'Retry-After',
  'Idempotent-Replayed',
  'X-Request-Id',
  'WWW-Authenticate',
  'Content-Disposition',
  'X-Total-Count',
  'RateLimit',
  'RateLimit-Policy',
];

/**
 * Response headers every browser lets a cross-origin script read without
 * being exposed (Fetch standard, "CORS-safelisted response-header name").
 */
export const SAFELISTED_RESPONSE_HEADERS = [
  'Cache-Control',
  'Content-Language',
  'Content-Length',
  'Content-Type',
  'Expires',
  'Last-Modified',
  'Pragma',
];

/**
 * Response headers the browser itself acts on, which no script reads, so
 * they are not exposed (X-Content-Type-Options: nosniff on images).
 */
export const BROWSER_ONLY_RESPONSE_HEADERS = ['X-Content-Type-Options'];

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
