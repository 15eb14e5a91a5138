import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { matchedRoute } from '../logging/request-log';
import { MetricsService } from './metrics.service';

/** Label of requests no route matched: one series, whatever the path. */
export const UNMATCHED_ROUTE = 'unmatched';

/** nginx's code for a request whose client left before the answer. */
const CLIENT_CLOSED_REQUEST = 499;

/** Times every request into http_request_duration_seconds. */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(request: Request, response: Response, next: NextFunction): void {
    const stop = this.metrics.httpRequestDuration.startTimer();
    response.once('close', () => {
      stop({
        method: request.method,
        route: matchedRoute(request) ?? UNMATCHED_ROUTE,
        status_code: response.writableFinished
          ? response.statusCode
          : CLIENT_CLOSED_REQUEST,
      });
    });
    next();
  }
}
