import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's defaults, except `upgrade-insecure-requests`: the service is
 * served over plain HTTP inside the cluster (TLS ends at the ingress), and
 * that directive would make a browser fetch Swagger UI's files over HTTPS.
 */
const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
};

/**
 * Swagger UI shows an image answer (the logo and asset routes) from a
 * `blob:` URL it creates; helmet's `img-src 'self' data:` blocks it. Only
 * the /docs pages get `blob:`: the API's answers are no pages.
 */
const DOCS_HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      upgradeInsecureRequests: null,
      imgSrc: ["'self'", 'data:', 'blob:'],
    },
  },
};

export type HeaderList = ReadonlyArray<readonly [string, string]>;

/**
 * The headers helmet sets, computed once at start-up: with these options
 * they do not depend on the request, so running helmet's eleven middleware
 * functions on every request would only recompute the same strings.
 */
export function securityHeaders(
  options: HelmetOptions = HELMET_OPTIONS,
): HeaderList {
  const headers: Array<[string, string]> = [];
  const response = {
    setHeader(name: string, value: string | number) {
      headers.push([name, String(value)]);
    },
    removeHeader() {},
  } as unknown as ServerResponse;
  let outcome: unknown = 'pending';
  helmet(options)({} as IncomingMessage, response, (error?: unknown) => {
    outcome = error;
  });
  if (outcome !== undefined) {
    throw new Error("helmet's headers could not be computed at start-up", {
      cause: outcome,
    });
  }
  return headers;
}

/** The Content-Security-Policy of the Swagger UI pages under /docs. */
export function docsContentSecurityPolicy(): string {
  const policy = securityHeaders(DOCS_HELMET_OPTIONS).find(
    ([name]) => name.toLowerCase() === 'content-security-policy',
  );
  if (!policy) throw new Error('helmet set no Content-Security-Policy');
  return policy[1];
}
