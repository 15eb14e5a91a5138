import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { appConfig } from '../config/app.config';
import { JsonBodyModule } from './common/body/json-body.module';
import { AllExceptionsFilter } from './common/http/all-exceptions.filter';
import { ExpressSettingsModule } from './common/http/express-settings.module';
import { ProtocolErrorsModule } from './common/http/protocol-errors.module';
import { RouteContextInterceptor } from './common/http/route-context.interceptor';
import { TrustProxyModule } from './common/http/trust-proxy.module';
import { AppValidationPipe } from './common/validation/app-validation.pipe';
import { DatabaseModule } from './database/database.module';
import { LogoModule } from './logo/logo.module';
import { ProjectsModule } from './projects/projects.module';

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
    JsonBodyModule,
    ExpressSettingsModule,
    ProtocolErrorsModule,
    TrustProxyModule,
    DatabaseModule,
    ProjectsModule,
    LogoModule,
  ],
  providers: [
    { provide: APP_PIPE, useClass: AppValidationPipe },
    { provide: APP_INTERCEPTOR, useClass: RouteContextInterceptor },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
  ],
})
export class AppModule {}
