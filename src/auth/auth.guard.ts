import {
  CanActivate,
  ExecutionContext,
  Inject,
  Injectable,
  Logger,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { ConfigType } from '@nestjs/config';
import { authConfig, type AuthConfig } from './auth.config';
import { httpConfig } from '../platform/http.config';
import { AuthFailure } from '../failures/auth-failure.error';
import {
  startRequestContext,
  type Caller,
} from '../common/http/request-context';
import { AUTHENTICATED, STREAM_TICKETS } from './authenticated.decorator';
import { StreamTickets } from './stream-tickets';
import { bearerTokenOf } from './bearer-token';
import { TokenVerifier } from './token-verifier';

/**
 * With AUTH_MODE=oidc, every route of an @Authenticated() controller needs
 * a valid bearer token. With AUTH_MODE=none (the default) it lets
 * everything by. Either way it makes the request's context (the caller it
 * proved, if any, and the client key that follows from it) for the body
 * guard, the handlers and the services. Runs after RouteContextGuard, so a
 * refusal gets the route's envelope.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly logger = new Logger('Auth');
  private readonly verifier?: TokenVerifier;
  private readonly tickets?: StreamTickets;
  private readonly configuredBaseUrl: string | undefined;

  constructor(
    private readonly reflector: Reflector,
    @Inject(authConfig.KEY) config: AuthConfig,
    @Inject(httpConfig.KEY) http: ConfigType<typeof httpConfig>,
  ) {
    if (config.mode === 'oidc') {
      this.verifier = new TokenVerifier(config);
      // Required with oidc (assets.config.ts).
      if (config.signingKey)
        this.tickets = new StreamTickets(config.signingKey);
    }
    this.configuredBaseUrl = http.publicBaseUrl;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    startRequestContext(
      request,
      http.getResponse<Response>(),
      await this.callerOf(context, request),
      this.configuredBaseUrl,
    );
    return true;
  }

  /**
   * A stream ticket, on a stream route (AcceptsStreamTicket) and only when
   * no Authorization header was sent: a token always wins.
   */
  private ticketOf(
    context: ExecutionContext,
    request: Request,
  ): string | undefined {
    const accepted = this.reflector.get<boolean | undefined>(
      STREAM_TICKETS,
      context.getHandler(),
    );
    if (!accepted || request.headers.authorization !== undefined) {
      return undefined;
    }
    const ticket: unknown = request.query.ticket;
    return typeof ticket === 'string' ? ticket : undefined;
  }

  /** The proven caller; undefined when the route or the mode needs none. */
  private async callerOf(
    context: ExecutionContext,
    request: Request,
  ): Promise<Caller | undefined> {
    if (!this.verifier) return undefined;
    const needed = this.reflector.getAllAndOverride<boolean | undefined>(
      AUTHENTICATED,
      [context.getHandler(), context.getClass()],
    );
    if (!needed) return undefined;
    try {
      const ticket = this.ticketOf(context, request);
      if (ticket !== undefined && this.tickets) {
        // A project's stream names its project in the path (:id).
        const projectId: unknown = request.params.id;
        return this.tickets.verify(
          ticket,
          typeof projectId === 'string' ? projectId : undefined,
        );
      }
      return await this.verifier.verify(bearerTokenOf(request));
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
