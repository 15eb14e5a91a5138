import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import {
  FAILURE_POLICY,
  FailurePolicy,
} from '../failures/failure-message.decorator';
import { setFailurePolicy } from '../failures/request-failure-policy';
import { refuseTrailingSlash } from './trailing-slash';

/**
 * Runs first on every matched route. Exception filters receive no handler
 * (host.getHandler() is null for HTTP errors), so the route's failure policy
 * is copied onto the request here for the filter to read.
 *
 * A guard and not an interceptor: Nest runs every guard before any
 * interceptor, and the refusals that need the route's envelope come from
 * guards (AuthGuard's 401 and 403, JsonBodyGuard's unreadable or oversized
 * body, which it reports before validation so it is never called invalid
 * input). An interceptor would set the policy only after them.
 */
@Injectable()
export class RouteContextGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    refuseTrailingSlash(request);
    setFailurePolicy(
      request,
      this.reflector.getAllAndOverride<FailurePolicy | undefined>(
        FAILURE_POLICY,
        [context.getHandler(), context.getClass()],
      ),
    );
    return true;
  }
}
