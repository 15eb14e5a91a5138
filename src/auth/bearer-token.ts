import type { Request } from 'express';
import { AuthFailure } from '../common/errors/auth-failure.error';

/** RFC 6750's b64token, after the scheme (which is case-insensitive). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The request's bearer token; AuthFailure when there is none usable. */
export function bearerTokenOf(request: Request): string {
  // Node keeps only the first of repeated Authorization headers; the raw
  // list shows them all, and two credentials are one too many.
  let sent = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    if (request.rawHeaders[i].toLowerCase() === 'authorization') sent++;
  }
  if (sent > 1) {
    throw AuthFailure.unauthorized(
      'Authorization sent more than once',
      'invalid_request',
    );
  }
  const header = request.headers.authorization;
  if (header === undefined) {
    throw AuthFailure.unauthorized('no Authorization header');
  }
  const match = BEARER.exec(header);
  if (!match) {
    throw AuthFailure.unauthorized(
      'Authorization is not a Bearer token',
      'invalid_request',
    );
  }
  return match[1];
}
