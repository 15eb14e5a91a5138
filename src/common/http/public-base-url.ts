import type { Request } from 'express';
import { InputValidationException } from '../../failures/input-validation.error';

/** A host name, IPv4 or bracketed IPv6 address, with an optional port. */
const HOST =
  /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin absolute URLs of this service start with: PUBLIC_BASE_URL
 * when set, else the request's scheme and Host. Express reads
 * X-Forwarded-Proto and X-Forwarded-Host only from a proxy TRUST_PROXY
 * trusts, so a client cannot choose the origin through them otherwise.
 */
export function publicBaseUrl(
  configured: string | undefined,
  request: Request,
): string {
  if (configured !== undefined) return configured;
  const host = request.host;
  // The Host header is the client's text: nothing but a host goes into a
  // URL. Otherwise it is invalid input, as a malformed header is elsewhere.
  if (typeof host !== 'string' || !HOST.test(host)) {
    throw new InputValidationException([
      {
        path: ['Host'],
        message: 'The Host header must be a host name or address',
        code: 'invalid_string',
      },
    ]);
  }
  return `${request.protocol}://${host}`;
}

/**
 * The same origin for URLs inside an answer that does not fail over them
 * (a project with its assets): with a Host that cannot be used, '' — the
 * URLs are then relative to wherever the request was sent.
 */
export function publicBaseUrlOrRelative(
  configured: string | undefined,
  request: Request,
): string {
  try {
    return publicBaseUrl(configured, request);
  } catch {
    return '';
  }
}

/**
 * A path of this service (starting with `/`) on `baseUrl`, as every
 * absolute URL in an answer is written: the base (origin, and path prefix
 * when PUBLIC_BASE_URL has one) then the path. Anything else is returned
 * as it is.
 */
export function absoluteUrl(baseUrl: string, path: string): string {
  return path.startsWith('/') && !path.startsWith('//')
    ? `${baseUrl}${path}`
    : path;
}
