import type { NextFunction, Request, Response } from 'express';
import { performance } from 'node:perf_hooks';
import type { Logger as Pino } from 'pino';
import type { Histogram } from 'prom-client';
import {
  REQUEST_ID_HEADER,
  recordedStatus,
  requestIdFor,
  requestLogFields,
  requestLogMessage,
  matchedRoute,
} from '../logging/request-log';
import type { HeaderList } from './security-headers';
import { isWarmUpRequest } from '../start/warm-up-request';

/** Label of requests no route matched: one series, whatever the path. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Where a request's log line and duration go. */
export interface RequestRecorders {
  /** Writes the one line per request. */
  requestLog: Pino;
  /** http_request_duration_seconds. */
  duration: Histogram<'method' | 'route' | 'status_code'>;
}

export interface OperationsTools extends RequestRecorders {
  /** Set on every response, computed once (security-headers.ts). */
  headers: HeaderList;
  /**
   * The start-up warm-up's own requests: the same code, into a logger and
   * a histogram nobody reads, so that it is compiled before readiness and
   * no line or metric is left behind.
   */
  warmUp: RequestRecorders;
}

/**
 * What every request gets, refused ones included, in one Express layer
 * instead of one per concern (each layer costs a pass through the router
 * and, mounted by Nest, a path match): its id (X-Request-Id, `request.id`),
 * the security headers, and when it ends one log line and one
 * http_request_duration_seconds observation, timed from the same start.
 */
export function operationsMiddleware(tools: OperationsTools) {
  const { headers } = tools;
  return function operations(
    request: Request,
    response: Response,
    next: NextFunction,
  ): void {
    const started = performance.now();
    const id = requestIdFor(request.headers['x-request-id']);
    (request as Request & { id: string }).id = id;
    response.setHeader(REQUEST_ID_HEADER, id);
    for (const [name, value] of headers) response.setHeader(name, value);
    const { requestLog, duration } = isWarmUpRequest(request)
      ? tools.warmUp
      : tools;
    response.once('close', () => {
      const elapsedMs = performance.now() - started;
      duration.observe(
        {
          method: request.method,
          route: matchedRoute(request) ?? UNMATCHED_ROUTE,
          status_code: recordedStatus(response),
        },
        elapsedMs / 1000,
      );
      const fields = {
        requestId: id,
        ...requestLogFields(request, response, Math.round(elapsedMs)),
      };
      const message = requestLogMessage(response);
      if (message === 'request failed') {
        requestLog.error(fields, message);
      } else {
        requestLog.info(fields, message);
      }
    });
    next();
  };
}
