import {
  Inject,
  Injectable,
  NestMiddleware,
  PayloadTooLargeException,
} from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { appConfig } from '../../../config/app.config';
import type { AppConfig } from '../../../config/environment';
import { setBodyDigest, setBodyError } from '../http/request-context';
import { UnreadableBodyError } from './unreadable-body.error';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Reads every POST/PUT/PATCH body as JSON, whatever its Content-Type says
 * (see docs/decisions.md). A body that is empty, not JSON or over BODY_LIMIT does not
 * fail here: no route is matched yet, so the response envelope is unknown.
 * The error is stored on the request and RouteContextGuard rethrows it.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly limit: number;

  constructor(@Inject(appConfig.KEY) config: AppConfig) {
    this.limit = config.bodyLimitBytes;
  }

  use(request: Request, _response: Response, next: NextFunction): void {
    if (!METHODS_WITH_BODY.has(request.method)) return next();

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
      // Past the limit the rest is read and dropped, so the client gets its
      // 413 instead of a connection reset while it is still sending.
      if (received <= this.limit) chunks.push(chunk);
    });
    request.on('error', () =>
      settle(new UnreadableBodyError('Request body could not be read')),
    );
    request.on('end', () => {
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
      try {
        request.body = JSON.parse(bytes.toString('utf8')) as unknown;
        settle();
      } catch (error) {
        request.body = undefined;
        settle(
          new UnreadableBodyError(
            error instanceof Error ? error.message : 'Invalid JSON body',
          ),
        );
      }
    });
  }
}
