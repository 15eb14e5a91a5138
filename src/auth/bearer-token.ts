import type { Request } from 'express';
import { AuthFailure } from '../failures/auth-failure.error';

/** RFC 6750's b64token, after the scheme (which is case-insensitive). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * A JWS in compact form, as RFC 7515 writes it: three base64url segments
 * (the last empty when unsigned), no padding, no `+` or `/`. The wider
 * b64token would let one token be sent in many spellings, each verified
 * and remembered apart.
 */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * The longest token accepted, well under the 16 KB of all headers that
 * Node allows: provider tokens are one or two kilobytes.
 */
export const MAX_TOKEN_CHARS = 8 * 1024;

const BASE64URL =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Whether a base64url segment is the one spelling of its bytes: a length
 * no encoder writes (4n + 1) or unused bits set in the last character
 * decode to the same bytes as another spelling.
 */
function isCanonicalSegment(segment: string): boolean {
  const unusedBits = { 0: 0, 1: -1, 2: 4, 3: 2 }[segment.length % 4] as number;
  if (unusedBits < 0) return false;
  if (unusedBits === 0) return true;
  const last = BASE64URL.indexOf(segment[segment.length - 1]);
  return (last & ((1 << unusedBits) - 1)) === 0;
}

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
  const match = header.length <= MAX_TOKEN_CHARS + 16 && BEARER.exec(header);
  if (!match) {
    throw AuthFailure.unauthorized(
      'Authorization is not a Bearer token',
      'invalid_request',
    );
  }
  const token = match[1];
  if (
    token.length > MAX_TOKEN_CHARS ||
    !COMPACT_JWS.test(token) ||
    !token.split('.').every(isCanonicalSegment)
  ) {
    throw AuthFailure.unauthorized('not a compact JWS', 'invalid_token');
  }
  return token;
}
