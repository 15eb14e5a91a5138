import { Inject, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application } from 'express';
import type { ConfigType } from '@nestjs/config';
import { httpConfig } from './http.config';
import { removeNestBodyParsers, sendReplies } from './app-parity';
import { corsMiddleware } from './cors';
import { ExpressSettingsModule } from './express-settings.module';
import { OperationsModule } from './operations.module';
import { PipeliningModule } from './pipelining/pipelining.module';
import { ProtocolErrorsModule } from './protocol-errors.module';
import { TrustProxyModule } from './trust-proxy.module';

/**
 * The wire level, the same for every route: the operations middleware
 * (request id, security headers, request log line, request metric), one
 * request at a time per connection, CORS,
 * JSON body parsing, Express settings and undecodable paths, protocol
 * errors and trust proxy. Each is set from a module, not from main.ts, so an
 * app built from AppModule alone answers exactly like the production
 * process; what needs more than Nest's public API for that is in
 * app-parity.ts.
 *
 * Imported by AppModule before the feature modules: the operations
 * middleware is the first Express layer, and CORS, mounted here through the
 * consumer, comes before any feature module's middleware (Nest mounts a
 * module's consumer middleware in import order among modules equally far
 * from AppModule).
 */
@Module({
  imports: [
    OperationsModule,
    // Right after it: a request waiting for its turn is already logged.
    PipeliningModule,
    ExpressSettingsModule,
    ProtocolErrorsModule,
    TrustProxyModule,
  ],
})
export class PlatformModule implements NestModule {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(httpConfig.KEY)
    private readonly config: ConfigType<typeof httpConfig>,
  ) {}

  configure(consumer: MiddlewareConsumer): void {
    // JsonBodyGuard (a global guard, after AuthGuard) reads bodies once the
    // route and the caller are known; Nest's parsers would read them first.
    removeNestBodyParsers(
      this.adapterHost.httpAdapter.getInstance<Application>(),
    );
    // A handler's Reply is applied where its answer is sent.
    sendReplies(this.adapterHost.httpAdapter);
    const cors = corsMiddleware(this.config.corsOrigins);
    if (cors) consumer.apply(cors).forRoutes('{*path}');
  }
}
