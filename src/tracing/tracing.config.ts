import {
  boolean,
  ConfigurationError,
  httpUrl,
  oneOf,
  read,
  type Env,
} from '../environment/env-values';

/**
 * OTEL_TRACES_SAMPLER's values (the OpenTelemetry specification's names;
 * the jaeger and xray samplers are not provided).
 */
export const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number];

/** The OTLP encodings the exporter speaks (grpc is not bundled). */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

export type TracingConfig =
  | { enabled: false }
  | {
      enabled: true;
      /** service.name unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES name it. */
      serviceName: string;
      protocol: OtlpProtocol;
      sampler: TraceSamplerName;
      /** The ratio of the traceidratio samplers, 0 to 1. */
      samplerRatio: number;
    };

export const DEFAULT_SERVICE_NAME = 'workspace-api';

function ratio(env: Env, name: string): number {
  const raw = read(env, name);
  if (raw === undefined) return 1;
  const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= 0 && value <= 1)) {
    throw new ConfigurationError(
      name,
      `must be a number from 0 to 1 (got "${raw}")`,
    );
  }
  return value;
}

/**
 * Tracing, from the standard OpenTelemetry variables only. Off unless an
 * OTLP endpoint is set, so a deployment without a collector never loads the
 * SDK; OTEL_SDK_DISABLED=true turns it off whatever else is set. The
 * exporter itself reads the endpoints (and OTEL_EXPORTER_OTLP_HEADERS,
 * _TIMEOUT, _COMPRESSION) as the specification says; the SDK's resource
 * detection reads OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. Values
 * are checked here only while tracing is on.
 *
 * Not a Nest configuration slice: tracing starts before Nest is loaded
 * (start-tracing.ts), and validates its own variables then.
 */
export function loadTracingConfiguration(
  env: Env = process.env,
): TracingConfig {
  const endpoint =
    read(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ??
    read(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (boolean(env, 'OTEL_SDK_DISABLED', false) || endpoint === undefined) {
    return { enabled: false };
  }
  httpUrl(
    env,
    read(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== undefined
      ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
      : 'OTEL_EXPORTER_OTLP_ENDPOINT',
    endpoint,
  );
  const protocol =
    read(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') !== undefined
      ? oneOf(
          env,
          'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
          OTLP_PROTOCOLS,
          'http/protobuf',
        )
      : oneOf(
          env,
          'OTEL_EXPORTER_OTLP_PROTOCOL',
          OTLP_PROTOCOLS,
          'http/protobuf',
        );
  return {
    enabled: true,
    serviceName: read(env, 'OTEL_SERVICE_NAME') ?? DEFAULT_SERVICE_NAME,
    protocol,
    sampler: oneOf(
      env,
      'OTEL_TRACES_SAMPLER',
      TRACE_SAMPLERS,
      'parentbased_always_on',
    ),
    samplerRatio: ratio(env, 'OTEL_TRACES_SAMPLER_ARG'),
  };
}
