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
 * is copied onto the request here for the filter to read (and for
 * JsonBodyGuard, which reads the body after this guard and AuthGuard, and
 * before validation, so an unreadable body is never reported as invalid
 * input).
 *
 * An interceptor is the usual place for this; a global guard sees the same
 * handler earlier. It was chosen when no interceptor was registered, which
 * let Nest skip the Observable chain and async-context binding it otherwise
 * builds for every request (a GET by id used about a quarter less CPU);
 * the tracing module now registers one globally, so that saving is gone,
 * but a guard still runs before the body guard that needs the policy.
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
