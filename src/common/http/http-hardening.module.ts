import { Inject, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import cors from 'cors';
import { appConfig } from '../../../config/app.config';
import type { AppConfig } from '../../../config/environment';

/**
 * CORS only for the origins in CORS_ORIGINS (off when unset), allowing the
 * request headers the API reads and exposing the response headers a
 * frontend needs; as middleware of a module so an app built from AppModule
 * alone sends them too. helmet's headers are set by the operations
 * middleware (security-headers.ts).
 */

/** Request headers a browser may send cross-origin. */
const ALLOWED_HEADERS = [
  'Content-Type',
  'X-Request-Id',
  'Idempotency-Key',
  'If-Match',
  'If-None-Match',
];

/** Response headers a browser lets cross-origin scripts read. */
const EXPOSED_HEADERS = [
  'Retry-After',
  'X-Request-Id',
  'ETag',
  'Idempotent-Replayed',
];
@Module({})
export class HttpHardeningModule implements NestModule {
  constructor(@Inject(appConfig.KEY) private readonly config: AppConfig) {}

  configure(consumer: MiddlewareConsumer): void {
    const origins = this.config.corsOrigins;
    if (origins !== undefined) {
      consumer
        .apply(
          cors({
            origin: origins === '*' ? '*' : origins,
            methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
            allowedHeaders: ALLOWED_HEADERS,
            exposedHeaders: EXPOSED_HEADERS,
            maxAge: 600,
          }),
        )
        .forRoutes('{*path}');
    }
  }
}
