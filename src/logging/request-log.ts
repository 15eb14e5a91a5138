import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT_CLOSED_REQUEST } from '../failures/describe-failure';
import { keyRedactor } from './key-redaction';
import { redactedUrl } from './url-redaction';

/** What a caller may send as X-Request-Id: short, printable, no spaces. */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:/+=-]{1,128}$/;

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * The request's id: the caller's X-Request-Id when it is a plausible id (so
 * a trace spans the frontend, a proxy and this service), otherwise a new
 * UUID. Anything else a client sends there — a huge value, control
 * characters that could forge a log line — is replaced, not logged.
 */
export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && ACCEPTED_REQUEST_ID.test(header)
    ? header
    : randomUUID();
}

/** Express sets `route` on a request once a route matched. */
interface RoutedRequest extends IncomingMessage {
  baseUrl?: string;
  originalUrl?: string;
  route?: { path?: unknown };
}

/**
 * The route template that matched ("/api/projects/:id"), or undefined for a
 * request no route matched (an unknown path, a static Swagger UI file). A
 * template, never the concrete path: ids must not become label values.
 */
export function matchedRoute(request: IncomingMessage): string | undefined {
  const routed = request as RoutedRequest;
  const path = routed.route?.path;
  return typeof path === 'string'
    ? `${routed.baseUrl ?? ''}${path}`
    : undefined;
}

const EXTRA_FIELDS = Symbol('logFields');

/**
 * Adds fields a route learned while working (what an upstream call cost)
 * to its request's log line.
 */
export function addRequestLogFields(
  response: ServerResponse,
  fields: Record<string, unknown>,
): void {
  const carrier = response as ServerResponse & {
    [EXTRA_FIELDS]?: Record<string, unknown>;
  };
  carrier[EXTRA_FIELDS] = { ...carrier[EXTRA_FIELDS], ...fields };
}

/**
 * The status a request ended with: the one sent, or 499 when the connection
 * closed before the answer was complete (the client left, or the answer was
 * cut off). `statusCode` then still holds the route's planned status (201
 * for a create) that no client ever received.
 */
export function recordedStatus(response: ServerResponse): number {
  return response.writableFinished
    ? response.statusCode
    : CLIENT_CLOSED_REQUEST;
}

/** The message of a request's line: how it ended. */
export function requestLogMessage(response: ServerResponse): string {
  if (!response.writableFinished) return 'request aborted';
  return response.statusCode >= 500 ? 'request failed' : 'request completed';
}

/** The fields of the one line logged per request. */
export function requestLogFields(
  request: IncomingMessage,
  response: ServerResponse,
  durationMs: number,
): Record<string, unknown> {
  const routed = request as RoutedRequest;
  const extra = (
    response as ServerResponse & { [EXTRA_FIELDS]?: Record<string, unknown> }
  )[EXTRA_FIELDS];
  return {
    method: request.method,
    route: matchedRoute(request) ?? null,
    // Tickets, signatures and tokens in the query are never logged.
    url: redactedUrl(routed.originalUrl ?? request.url ?? ''),
    status: recordedStatus(response),
    durationMs,
    ...extra,
  };
}

/**
 * Removes `secret` from a finished log line. Redaction by field path cannot
 * catch a key that ends up inside a message (an upstream error echoing the
 * request, a stack), so every line is checked once more before it is
 * written, for the key in every form an upstream could echo it
 * (key-redaction.ts).
 */
export function scrubSecret(line: string, secret: string | undefined): string {
  return keyRedactor(secret)(line);
}
