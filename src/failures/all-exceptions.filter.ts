import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Logger,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { PublicError } from './public.error';
import { RetryLaterError } from './retry-later.error';
import { CLIENT_CLOSED_REQUEST, describeFailure } from './describe-failure';
import { getFailurePolicy } from './request-failure-policy';
import { largeBodyStillComing } from './refused-body';

/**
 * The one place where failures become responses. Services and
 * controllers only throw.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Failure');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const { status, body, headers } = describeFailure(
      exception,
      getFailurePolicy(request),
    );
    if (status >= 500) this.log(request, exception);
    // A client that has gone away gets nothing; its socket is closed.
    if (response.headersSent || status === CLIENT_CLOSED_REQUEST) return;
    for (const [name, value] of Object.entries(headers ?? {})) {
      response.setHeader(name, value);
    }
    if (largeBodyStillComing(request))
      response.setHeader('Connection', 'close');
    response.status(status).json(body);
  }

  /**
   * Logs the error's name and message, and the stack of unexpected errors.
   * The error object itself is never logged: an HTTP client error carries
   * the outgoing request, Authorization header included.
   */
  private log(request: Request, exception: unknown): void {
    const where = `${request.method} ${request.path}`;
    // Expected failures (an upstream error, a full queue) are one line; only
    // the unexpected ones need their stack.
    if (
      exception instanceof PublicError ||
      exception instanceof HttpException ||
      exception instanceof RetryLaterError
    ) {
      const logDetail = (exception as { logDetail?: unknown }).logDetail;
      const detail =
        typeof logDetail === 'string' && logDetail ? ` (${logDetail})` : '';
      this.logger.warn(
        `${where}: ${exception.name}: ${exception.message}${detail}`,
      );
    } else if (exception instanceof Error) {
      this.logger.error(
        `${where}: ${exception.name}: ${exception.message}`,
        exception.stack,
      );
    } else {
      this.logger.error(`${where}: non-error thrown: ${typeof exception}`);
    }
  }
}
