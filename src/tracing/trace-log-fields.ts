import { isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * `trace_id` and `span_id` of the span active while a line is logged, so a
 * log line leads to its trace and back. A pino mixin: json-logger.ts
 * installs it only while tracing is on (this file is never loaded
 * otherwise).
 */
export function traceLogFields(): Record<string, string> {
  const context = trace.getActiveSpan()?.spanContext();
  if (context === undefined || !isSpanContextValid(context)) return {};
  return { trace_id: context.traceId, span_id: context.spanId };
}
