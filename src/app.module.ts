import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { CONFIGURATION } from '../config/configuration';
import { AllExceptionsFilter } from './failures/all-exceptions.filter';
import { RouteContextGuard } from './platform/route-context.guard';
import { AppValidationPipe } from './common/validation/app-validation.pipe';
import { JsonBodyGuard } from './platform/body/json-body.guard';
import { AppGuard } from './app.guard';
import { AuthGuard } from './auth/auth.guard';
import { DatabaseModule } from './database/database.module';
import { ChangeLogModule } from './change-log/change-log.module';
import { EventsModule } from './events/events.module';
import { AssetsModule } from './assets/assets.module';
import { BrandKitModule } from './brand-kit/brand-kit.module';
import { ApiDocsModule } from './docs/api-docs.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { PlatformModule } from './platform/platform.module';
import { LogoModule } from './logo/logo.module';
import { ProjectsModule } from './projects/projects.module';
import { SectionsModule } from './sections/sections.module';
import { SitesModule } from './sites/sites.module';
import { TasksModule } from './tasks/tasks.module';
import { RunsModule } from './runs/runs.module';
import { UsageModule } from './usage/usage.module';
import { MeModule } from './me/me.module';
import { ownSpansEnabled } from './tracing/spans';
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
      load: CONFIGURATION,
      // Tests configure the app through process.env only.
      ignoreEnvFile: process.env.NODE_ENV === 'test',
    }),
    // First: every request, refused ones included, gets its id, its
    // security headers, its log line and its metric (the operations
    // middleware, in PlatformModule, times requests into MetricsModule).
    MetricsModule,
    PlatformModule,
    DatabaseModule,
    ChangeLogModule,
    ProjectsModule,
    LogoModule,
    AssetsModule,
    BrandKitModule,
    SectionsModule,
    TasksModule,
    RunsModule,
    SitesModule,
    UsageModule,
    MeModule,
    EventsModule,
    HealthModule,
    ApiDocsModule,
    // Decided as this file loads: main.ts starts tracing (start-tracing.ts)
    // before it imports AppModule, so the answer is already known.
    TracingModule.register(ownSpansEnabled()),
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
