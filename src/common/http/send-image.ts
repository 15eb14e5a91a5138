import type { Request, Response } from 'express';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseEntityTags, weakMatch } from './entity-tags';

/** What an SVG may do when opened as a document: draw itself, nothing else. */
export const SVG_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** Image bytes to send, as a stream read only as the client takes them. */
export interface ImageToSend {
  /** The entity tag's opaque part (without quotes). */
  etag: string;
  cacheControl: string;
  mediaType: string;
  size: number;
  body: Readable;
  /** A document rather than an image: served with CSP sandbox. */
  sandboxed?: boolean;
}

/**
 * Answers a GET or HEAD of image bytes this service keeps (hosted logos,
 * kept logos): ETag and Cache-Control, nosniff, loadable in an `<img>` on
 * another origin, 304 to a matching If-None-Match, and the bytes streamed
 * a chunk at a time. The body is destroyed unread when it is not sent.
 */
export async function sendImage(
  request: Request,
  response: Response,
  image: ImageToSend,
): Promise<void> {
  response.setHeader('ETag', `"${image.etag}"`);
  response.setHeader('Cache-Control', image.cacheControl);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  if (image.mediaType === 'image/svg+xml') {
    // An SVG can hold script: as a document of its own it gets an opaque
    // origin and runs nothing (in an <img> a browser never runs it anyway).
    response.setHeader('Content-Security-Policy', SVG_POLICY);
  } else if (image.sandboxed) {
    // A document made by a model (a landing page) must never run with this
    // API's origin: `sandbox` without allow-same-origin gives it an opaque
    // origin and no scripts, so it can read no token, cookie or storage
    // of ours; it may still be framed anywhere to be previewed.
    response.setHeader(
      'Content-Security-Policy',
      "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors *",
    );
    response.removeHeader('X-Frame-Options');
  }
  // A frontend on another origin shows it in an <img>.
  response.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  const condition = parseEntityTags(request.headers['if-none-match']);
  if (condition !== undefined && weakMatch(condition, image.etag)) {
    image.body.destroy();
    response.status(304).end();
    return;
  }
  response.status(200);
  response.setHeader('Content-Type', image.mediaType);
  response.setHeader('Content-Length', String(image.size));
  // HEAD gets the headers only: no reason to read the bytes.
  if (request.method === 'HEAD') {
    image.body.destroy();
    response.end();
    return;
  }
  // A client that leaves ends the reading.
  await pipeline(image.body, response).catch(() => {
    // Headers are gone: a cut connection is all that can be said, and the
    // Content-Length tells the client the image is incomplete.
    response.destroy();
  });
}
