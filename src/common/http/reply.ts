import type { Response } from 'express';
import { JSON_CONTENT_TYPE } from './json-text';

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

  /** Sets the status and headers; returns the body for Nest to send. */
  applyTo(response: Response): string | undefined {
    response.status(this.status);
    for (const name in this.headers) {
      response.setHeader(name, this.headers[name]);
    }
    if (this.body !== undefined && !('Content-Type' in this.headers)) {
      response.setHeader('Content-Type', JSON_CONTENT_TYPE);
    }
    return this.body;
  }
}
