import type { Response } from 'express';
import { JSON_CONTENT_TYPE } from './json-text';

/**
 * What a route sends when its answer is more than a body: the status, the
 * headers (ETag, Location, Idempotent-Replayed) and the body as JSON text.
 * Services return domain results; each feature maps them to a JsonReply in
 * its `*-replies.ts`, and the controller sends it with sendJsonReply.
 */
export interface JsonReply {
  status: number;
  headers: Record<string, string>;
  /** JSON text, sent as it is; undefined for a 304. */
  body?: string;
}

/**
 * Applies the reply's status and headers (and the JSON Content-Type when
 * there is a body); the body is returned for Nest to send. For a handler
 * with `@Res({ passthrough: true })`.
 */
export function sendJsonReply(
  response: Response,
  reply: JsonReply,
): string | undefined {
  response.status(reply.status);
  for (const [name, value] of Object.entries(reply.headers)) {
    response.setHeader(name, value);
  }
  if (reply.body !== undefined) {
    response.setHeader('Content-Type', JSON_CONTENT_TYPE);
  }
  return reply.body;
}
