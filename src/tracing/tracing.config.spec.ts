import { loadTracingConfiguration } from './tracing.config';

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };

describe('tracing configuration (OTEL_*)', () => {
  it('is off without an OTLP endpoint', () => {
    expect(loadTracingConfiguration({})).toEqual({ enabled: false });
  });

  it('is off with OTEL_SDK_DISABLED=true, endpoint or not', () => {
    expect(
      loadTracingConfiguration({ ...ENDPOINT, OTEL_SDK_DISABLED: 'true' }),
    ).toEqual({ enabled: false });
  });

  it('is on with an endpoint: workspace-api, protobuf, parent-based always-on', () => {
    expect(loadTracingConfiguration(ENDPOINT)).toEqual({
      enabled: true,
      serviceName: 'workspace-api',
      protocol: 'http/protobuf',
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
    });
  });

  it('is on with only the traces endpoint', () => {
    expect(
      loadTracingConfiguration({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces',
      }).enabled,
    ).toBe(true);
  });

  it('reads the sampler, its ratio, the protocol and the service name', () => {
    expect(
      loadTracingConfiguration({
        ...ENDPOINT,
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'workspace-api-eu',
      }),
    ).toMatchObject({
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.25,
      protocol: 'http/json',
      serviceName: 'workspace-api-eu',
    });
  });

  it('lets the traces protocol override the general one', () => {
    expect(
      loadTracingConfiguration({
        ...ENDPOINT,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      }),
    ).toMatchObject({ protocol: 'http/protobuf' });
  });

  it.each([
    ['OTEL_TRACES_SAMPLER', 'jaeger_remote'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
  ])('rejects %s=%s with one line naming it', (name, value) => {
    expect(() =>
      loadTracingConfiguration({ ...ENDPOINT, [name]: value }),
    ).toThrow(new RegExp(`^Invalid configuration: ${name} `));
  });
});
