import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { startHandlerSpan } from './spans';

/**
 * With tracing on, names the request's route on its server span (which then
 * reads `GET /api/projects/:id` and carries `http.route`) and runs the
 * controller method in a span of its own, `ProjectsController.get`.
 *
 * The OpenTelemetry instrumentations of Express and Nest did this while Nest
 * was CommonJS; Nest 12 is ES modules, which their require() hooks do not
 * reach (and the Nest one supports Nest up to 11). One interceptor does it
 * whatever the framework's module format. With tracing off it passes the
 * call through untouched.
 */
@Injectable()
export class HandlerSpanInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const route = (request.route as { path?: unknown } | undefined)?.path;
    const controller = context.getClass().name;
    const handler = context.getHandler().name;
    const span = startHandlerSpan(
      typeof route === 'string' ? route : undefined,
      `${controller}.${handler}`,
      { 'nestjs.controller': controller, 'nestjs.callback': handler },
    );
    if (span === undefined) return next.handle();
    return new Observable((subscriber) => {
      const subscription = span.run(() =>
        next.handle().subscribe({
          next: (value) => subscriber.next(value),
          error: (error: unknown) => {
            span.fail(error);
            subscriber.error(error);
          },
          complete: () => subscriber.complete(),
        }),
      );
      return () => {
        subscription.unsubscribe();
        span.end();
      };
    });
  }
}
