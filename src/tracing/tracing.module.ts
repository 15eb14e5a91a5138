import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { HandlerSpanInterceptor } from './handler-span.interceptor';
import { TracingShutdown } from './tracing-shutdown';

/**
 * Flushes the spans on shutdown, and names each request's route and
 * controller method in its trace; tracing itself starts before Nest.
 */
@Module({
  providers: [
    TracingShutdown,
    { provide: APP_INTERCEPTOR, useClass: HandlerSpanInterceptor },
  ],
})
export class TracingModule {}
