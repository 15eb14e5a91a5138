import type { Attributes, Span, SpanOptions, Tracer } from '@opentelemetry/api';

/**
 * The service's own spans (the SQLite statements, the logo queue, each
 * upstream attempt, the backoffs), beside those the instrumentations make.
 *
 * With tracing off nothing of OpenTelemetry is loaded or called: `tracer`
 * stays undefined and every helper runs its work directly. Tracing turns
 * this on once, before the app is built (start-tracing.ts, or a test that
 * registers its own provider).
 */
let tracer: Tracer | undefined;

/** Spans of our own from now on, made with the global tracer provider. */
export function enableOwnSpans(): void {
  // Loaded here, not at the top: with tracing off it is never loaded.
  type Api = typeof import('@opentelemetry/api');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const api = require('@opentelemetry/api') as Api;
  tracer = api.trace.getTracer('workspace-api');
}

/** @internal For tests that build several apps with and without tracing. */
export function disableOwnSpans(): void {
  tracer = undefined;
}

export function ownSpansEnabled(): boolean {
  return tracer !== undefined;
}

/**
 * Runs `work` inside a span named `name` (a child of the active one), and
 * ends the span when `work` settles. A failure sets the span's status to
 * error with the error's name (the message may quote an upstream) and is
 * rethrown. With tracing off, this is `work(undefined)`.
 */
export function inSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (tracer === undefined) return work(undefined);
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Error status (code 2) and `error.type`, without the error's message. */
/** inSpan for synchronous work (a decode), ended before it returns. */
export function inSpanSync<T>(
  name: string,
  work: (span: Span | undefined) => T,
): T {
  if (tracer === undefined) return work(undefined);
  return tracer.startActiveSpan(name, (span) => {
    try {
      return work(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

export function markFailed(span: Span, error: unknown): void {
  span.setAttribute(
    'error.type',
    error instanceof Error ? error.name : typeof error,
  );
  span.setStatus({ code: 2 });
}

/** A span around a controller method (see HandlerSpanInterceptor). */
export interface HandlerSpan {
  /** Runs `work` with this span active, so the spans it makes are children. */
  run<T>(work: () => T): T;
  fail(error: unknown): void;
  end(): void;
}

/**
 * Names `route` on the server span of the request being served (the http
 * instrumentation writes it to `http.route` and the span's name when the
 * answer ends) and starts a span `name` under it. Undefined with tracing off.
 */
export function startHandlerSpan(
  route: string | undefined,
  name: string,
  attributes: Attributes,
): HandlerSpan | undefined {
  if (tracer === undefined) return undefined;
  // Loaded with tracing on only, as in enableOwnSpans.
  type Api = typeof import('@opentelemetry/api');
  type Core = typeof import('@opentelemetry/core');
  /* eslint-disable @typescript-eslint/no-require-imports */
  const api = require('@opentelemetry/api') as Api;
  const core = require('@opentelemetry/core') as Core;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const active = api.context.active();
  const metadata = core.getRPCMetadata(active);
  if (route !== undefined && metadata?.type === core.RPCType.HTTP) {
    metadata.route = route;
  }
  const span = tracer.startSpan(name, {
    attributes: {
      ...attributes,
      ...(route === undefined ? {} : { 'http.route': route }),
    },
  });
  const spanContext = api.trace.setSpan(active, span);
  return {
    run: (work) => api.context.with(spanContext, work),
    fail: (error) => markFailed(span, error),
    end: () => span.end(),
  };
}

/** Sets attributes on `span` when there is one. */
export function annotate(span: Span | undefined, attributes: Attributes): void {
  span?.setAttributes(attributes);
}
