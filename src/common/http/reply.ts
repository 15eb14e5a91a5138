import type { Request, Response } from 'express';
import { JSON_CONTENT_TYPE } from './json-text';
import { absoluteUrl } from './public-base-url';
import { findRequestContext } from './request-context';

/**
 * A Location path made absolute on the request's public origin, as the
 * URLs in bodies are (baseUrlOrRelative: with a Host that cannot be used
 * and no PUBLIC_BASE_URL it stays a path, relative to where the request
 * went, rather than failing an answer whose work is done).
 */
function absoluteLocation(location: string, request: Request): string {
  const context = findRequestContext(request);
  return context === undefined
    ? location
    : absoluteUrl(context.baseUrlOrRelative(), location);
}

/**
 * What a route answers when its answer is more than a body: the status,
 * the headers (ETag, Location, Idempotent-Replayed) and the body as text —
 * JSON unless the headers name another Content-Type. Handlers return one;
 * the adapter applies it where it sends the answer (platform/app-parity.ts
 * sendReplies), so no handler writes to the response.
 * Services return domain results; each feature maps them to a Reply in its
 * `*-replies.ts`, also for the answer an Idempotency-Key stores.
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    /** The body as it is sent; undefined for a 304. */
    readonly body?: string,
  ) {}

  /**
   * Sets the status and headers; returns the body for Nest to send. A
   * Location is given as a path and sent absolute, on the origin the
   * request's body URLs are written for (public-base-url.ts), so a replay
   * stored with its path answers for whoever asks again.
   */
  applyTo(response: Response): string | undefined {
    response.status(this.status);
    for (const name in this.headers) {
      const value = this.headers[name];
      response.setHeader(
        name,
        name === 'Location' ? absoluteLocation(value, response.req) : value,
      );
    }
    if (this.body !== undefined && !('Content-Type' in this.headers)) {
      response.setHeader('Content-Type', JSON_CONTENT_TYPE);
    }
    return this.body;
  }
}
