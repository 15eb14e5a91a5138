import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { appConfig } from '../config/app.config';
import { JsonBodyModule } from './common/body/json-body.module';
import { AllExceptionsFilter } from './common/http/all-exceptions.filter';
import { ExpressSettingsModule } from './common/http/express-settings.module';
import { OperationsModule } from './common/http/operations.module';
import { ProtocolErrorsModule } from './common/http/protocol-errors.module';
import { RouteContextGuard } from './common/http/route-context.guard';
import { TrustProxyModule } from './common/http/trust-proxy.module';
import { AppValidationPipe } from './common/validation/app-validation.pipe';
import { JsonBodyGuard } from './common/body/json-body.guard';
import { AppGuard } from './app.guard';
import { AuthGuard } from './auth/auth.guard';
import { DatabaseModule } from './database/database.module';
import { ApiDocsModule } from './docs/api-docs.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { HttpHardeningModule } from './common/http/http-hardening.module';
import { LogoModule } from './logo/logo.module';
import { ProjectsModule } from './projects/projects.module';
import { TracingModule } from './tracing/tracing.module';

/**
 * Everything that shapes a response is registered here, not in main.ts, so
 * an app built from AppModule alone (as NestJS e2e suites build it) answers
 * exactly like the production process.
 */
@Module({
  imports: [
    ConfigModule.forRoot({
      isGlobal: true,
      load: [appConfig],
      // Tests configure the app through process.env only.
      ignoreEnvFile: process.env.NODE_ENV === 'test',
    }),
    // First: every request, refused ones included, gets its id, its
    // security headers, its log line and its metric.
    MetricsModule,
    OperationsModule,
    HttpHardeningModule,
    JsonBodyModule,
    ExpressSettingsModule,
    ProtocolErrorsModule,
    TrustProxyModule,
    DatabaseModule,
    ProjectsModule,
    LogoModule,
    HealthModule,
    ApiDocsModule,
    TracingModule,
  ],
  providers: [
    { provide: APP_PIPE, useClass: AppValidationPipe },
    // The only global guard: it runs the guards below in its fixed order.
    { provide: APP_GUARD, useClass: AppGuard },
    RouteContextGuard,
    AuthGuard,
    JsonBodyGuard,
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
  ],
})
export class AppModule {}
