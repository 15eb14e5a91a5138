import {
  Inject,
  Injectable,
  NestMiddleware,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { appConfig } from '../../../config/app.config';
import type { AppConfig } from '../../../config/environment';
import { setBodyDigest, setBodyError } from '../http/request-context';
import { jsonErrorMessage, NATIVE_PARSE_MAX_CHARS } from './json-error-message';
import { NotJsonError, parseJsonInSlices } from './sliced-json';
import { UnreadableBodyError } from './unreadable-body.error';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The content types a browser may send to another origin without a CORS
 * preflight (the "CORS-safelisted" ones), and no Content-Type at all,
 * which a browser sends for an untyped Blob or a stream.
 */
const PREFLIGHT_FREE_TYPES = new Set([
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
]);

function needsNoPreflight(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const mediaType = contentType.split(';', 1)[0].trim().toLowerCase();
  return mediaType === '' || PREFLIGHT_FREE_TYPES.has(mediaType);
}

/**
 * The body's value, as JSON.parse gives it, or JSON.parse's error. A short
 * body is parsed at once; a longer one in slices (sliced-json.ts), so that
 * no body under BODY_LIMIT holds the event loop while it is parsed.
 */
async function readJson(text: string): Promise<unknown> {
  if (text.length <= NATIVE_PARSE_MAX_CHARS) return JSON.parse(text);
  try {
    return await parseJsonInSlices(text);
  } catch (error) {
    if (!(error instanceof NotJsonError)) throw error;
    throw new Error(await jsonErrorMessage(text, error.position));
  }
}

/**
 * Reads every POST/PUT/PATCH body as JSON, whatever its Content-Type says
 * (see docs/decisions.md). A body that is empty, not JSON or over BODY_LIMIT does not
 * fail here: no route is matched yet, so the response envelope is unknown.
 * The error is stored on the request and RouteContextGuard rethrows it.
 *
 * With CORS_ORIGINS set, a body whose Content-Type needs no CORS preflight
 * is refused (415) instead: any web page can make a browser send one, and
 * read as JSON it would create or change projects on the visitor's
 * network. Without CORS_ORIGINS every body is read as before.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly limit: number;
  private readonly refusePreflightFree: boolean;

  constructor(@Inject(appConfig.KEY) config: AppConfig) {
    this.limit = config.bodyLimitBytes;
    this.refusePreflightFree = config.corsOrigins !== undefined;
  }

  use(request: Request, _response: Response, next: NextFunction): void {
    if (!METHODS_WITH_BODY.has(request.method)) return next();
    const refused =
      this.refusePreflightFree &&
      needsNoPreflight(request.headers['content-type']);

    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (error) setBodyError(request, error);
      next();
    };

    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
      // Past the limit (or when refused) the rest is read and dropped, so
      // the client gets its answer instead of a connection reset while it
      // is still sending.
      if (!refused && received <= this.limit) chunks.push(chunk);
    });
    request.on('error', () =>
      settle(new UnreadableBodyError('Request body could not be read')),
    );
    request.on('end', () => {
      if (refused) {
        return settle(
          new UnsupportedMediaTypeException('Unsupported media type'),
        );
      }
      if (received > this.limit) {
        return settle(
          new PayloadTooLargeException('Request body is too large'),
        );
      }
      const bytes = Buffer.concat(chunks);
      // An Idempotency-Key's retry must send the same bytes: their digest is
      // the request's fingerprint (cheap, and never recursive however the
      // JSON is nested).
      if (request.headers['idempotency-key'] !== undefined) {
        setBodyDigest(
          request,
          createHash('sha256').update(bytes).digest('hex'),
        );
      }
      void readJson(bytes.toString('utf8')).then(
        (body) => {
          request.body = body;
          settle();
        },
        (error: unknown) => {
          request.body = undefined;
          settle(
            new UnreadableBodyError(
              error instanceof Error ? error.message : 'Invalid JSON body',
            ),
          );
        },
      );
    });
  }
}
