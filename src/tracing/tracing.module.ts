import { Module, type DynamicModule } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { HandlerSpanInterceptor } from './handler-span.interceptor';
import { TracingShutdown } from './tracing-shutdown';

/**
 * With tracing on: flushes the spans on shutdown, and names each request's
 * route and controller method in its trace (tracing itself starts before
 * Nest). With tracing off it registers nothing: a global interceptor runs on
 * every request even when it only passes the call through (GET by id took
 * 300 us of CPU with it and 280 us without).
 */
@Module({})
export class TracingModule {
  static register(tracing: boolean): DynamicModule {
    return {
      module: TracingModule,
      providers: tracing
        ? [
            TracingShutdown,
            { provide: APP_INTERCEPTOR, useClass: HandlerSpanInterceptor },
          ]
        : [],
    };
  }
}
