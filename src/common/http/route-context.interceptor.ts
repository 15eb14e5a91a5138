import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { Observable, throwError } from 'rxjs';
import { FAILURE_POLICY, FailurePolicy } from './failure-message.decorator';
import { setFailurePolicy, takeBodyError } from './request-context';

/**
 * Runs first on every matched route. Exception filters receive no handler
 * (host.getHandler() is null for HTTP errors), so the route's failure policy
 * is copied onto the request here for the filter to read. A body that could
 * not be read is rethrown here, now that its route is known, and before
 * validation, so an unreadable body is never reported as invalid input.
 */
@Injectable()
export class RouteContextInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    setFailurePolicy(
      request,
      this.reflector.getAllAndOverride<FailurePolicy | undefined>(
        FAILURE_POLICY,
        [context.getHandler(), context.getClass()],
      ),
    );
    const bodyError = takeBodyError(request);
    return bodyError ? throwError(() => bodyError) : next.handle();
  }
}
