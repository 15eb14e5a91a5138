import {
  CanActivate,
  ExecutionContext,
  Inject,
  Injectable,
  Logger,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { authConfig, type AuthConfig } from './auth.config';
import { AuthFailure } from '../failures/auth-failure.error';
import { setCaller } from '../common/http/request-context';
import { AUTHENTICATED } from './authenticated.decorator';
import { bearerTokenOf } from './bearer-token';
import { TokenVerifier } from './token-verifier';

/**
 * With AUTH_MODE=oidc, every route of an @Authenticated() controller needs
 * a valid bearer token; the caller it proves is kept on the request for the
 * services. With AUTH_MODE=none (the default) it lets everything by.
 * Runs after RouteContextGuard, so a refusal gets the route's envelope.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly logger = new Logger('Auth');
  private readonly verifier?: TokenVerifier;

  constructor(
    private readonly reflector: Reflector,
    @Inject(authConfig.KEY) config: AuthConfig,
  ) {
    if (config.mode === 'oidc') {
      this.verifier = new TokenVerifier(config);
    }
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.verifier) return true;
    const needed = this.reflector.getAllAndOverride<boolean | undefined>(
      AUTHENTICATED,
      [context.getHandler(), context.getClass()],
    );
    if (!needed) return true;
    const request = context.switchToHttp().getRequest<Request>();
    try {
      const caller = await this.verifier.verify(bearerTokenOf(request));
      setCaller(request, caller);
      return true;
    } catch (error) {
      // The reason goes to the log, never to the client (nor the token).
      if (error instanceof AuthFailure) {
        this.logger.warn(
          `${request.method} ${request.path}: caller refused (${error.reason})`,
        );
      }
      throw error;
    }
  }
}
