import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  registerInstrumentations,
  type Instrumentation,
} from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TracingConfig } from './tracing.config';
import { enableOwnSpans } from './spans';
import { isWarmUpRequest } from '../start/warm-up-request';

type EnabledTracing = Extract<TracingConfig, { enabled: true }>;

/** Paths that are polled, not used: probes and scrapes would bury the traces. */
const UNTRACED_PATHS = /^\/(health\/|metrics(\?|$))/;

export interface TracingHandle {
  /** Exports the spans still buffered and stops the exporter. */
  shutdown(timeoutMs: number): Promise<void>;
}

/**
 * The OpenTelemetry SDK: loaded (by start-tracing.ts) only when tracing is
 * on, and before any module it instruments, because the instrumentations
 * patch modules as they are required.
 */
export function startTracingSdk(config: EnabledTracing): TracingHandle {
  const provider = new TracerProvider({
    // service.name defaults to ours; OTEL_SERVICE_NAME and
    // OTEL_RESOURCE_ATTRIBUTES (envDetector) take precedence.
    resource: defaultResource()
      .merge(
        resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }),
      )
      .merge(detectResources({ detectors: [envDetector] })),
    sampler: samplerFor(config),
    spanProcessors: [new BatchSpanProcessor({ exporter: exporterFor(config) })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  propagation.setGlobalPropagator(
    new CompositePropagator({
      propagators: [
        new W3CTraceContextPropagator(),
        new W3CBaggagePropagator(),
      ],
    }),
  );
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({ instrumentations: tracingInstrumentations() });
  enableOwnSpans();
  return {
    shutdown: (timeoutMs) => withTimeout(provider.shutdown(), timeoutMs),
  };
}

/**
 * What is instrumented. No header and no body is ever recorded: the http
 * instrumentation records headers only when asked to (it is not), so the
 * image API's Authorization header never reaches a span; pg records
 * statement text without parameter values (enhancedDatabaseReporting off);
 * ioredis records the command name only (keys hold client addresses).
 */
export function tracingInstrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request) =>
        UNTRACED_PATHS.test(request.url ?? '') || isWarmUpRequest(request),
      // An outgoing call with no request behind it (none today) is not a trace.
      requireParentforOutgoingSpans: true,
    }),
    new PgInstrumentation({
      enhancedDatabaseReporting: false,
      // Background work (the idempotency purge, migrations) is not traced.
      requireParentSpan: true,
    }),
    new IORedisInstrumentation({
      requireParentSpan: true,
      dbStatementSerializer: (command) => command,
    }),
  ];
}

function exporterFor(config: EnabledTracing): SpanExporter {
  // Both read OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT and
  // _COMPRESSION themselves.
  return config.protocol === 'http/json'
    ? new OtlpJsonExporter()
    : new OtlpProtobufExporter();
}

/** OTEL_TRACES_SAMPLER, as the specification defines its values. */
export function samplerFor(
  config: Pick<EnabledTracing, 'sampler' | 'samplerRatio'>,
): Sampler {
  switch (config.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(config.samplerRatio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({
        root: new TraceIdRatioBasedSampler(config.samplerRatio),
      });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  return Promise.race([work.catch(() => undefined), timeout]).finally(() =>
    clearTimeout(timer),
  );
}
