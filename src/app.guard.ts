import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from './auth/auth.guard';
import { JsonBodyGuard } from './platform/body/json-body.guard';
import { RouteContextGuard } from './platform/route-context.guard';

/**
 * The guards of every route, run in this order, each only when the one
 * before allowed the request:
 * 1. RouteContextGuard: the route's failure envelope is known, so any
 *    refusal after it (a caller's included) gets the route's body shape;
 * 2. AuthGuard: the caller is proven (AUTH_MODE=oidc) and the request's
 *    context (request-context.ts) made;
 * 3. JsonBodyGuard: the body is read, only for a known route and an
 *    allowed caller, so a refused request is answered without reading it.
 * One global guard, so the order is this list and not the order in which
 * providers happen to be registered.
 */
@Injectable()
export class AppGuard implements CanActivate {
  constructor(
    private readonly routeContext: RouteContextGuard,
    private readonly auth: AuthGuard,
    private readonly body: JsonBodyGuard,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    return (
      this.routeContext.canActivate(context) &&
      (await this.auth.canActivate(context)) &&
      this.body.canActivate(context)
    );
  }
}
