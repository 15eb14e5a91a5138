import { Inject, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import cors from 'cors';
import helmet from 'helmet';
import { appConfig } from '../../../config/app.config';
import type { AppConfig } from '../../../config/environment';

/**
 * Headers for a service without authentication, as middleware of a module so
 * an app built from AppModule alone sends them too:
 * - helmet's defaults, except `upgrade-insecure-requests`: the service is
 *   served over plain HTTP inside the cluster (TLS ends at the ingress), and
 *   that directive would make a browser fetch Swagger UI's files over HTTPS;
 * - CORS only for the origins in CORS_ORIGINS (off when unset), allowing
 *   the request headers the API reads and exposing the response headers a
 *   frontend needs.
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
    consumer
      .apply(
        helmet({
          contentSecurityPolicy: {
            directives: { upgradeInsecureRequests: null },
          },
        }),
      )
      .forRoutes('{*path}');

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
