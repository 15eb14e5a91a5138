import { Module } from '@nestjs/common';
import { TracingShutdown } from './tracing-shutdown';

/** Flushes the spans on shutdown; tracing itself starts before Nest. */
@Module({ providers: [TracingShutdown] })
export class TracingModule {}
