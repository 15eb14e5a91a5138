import { ConfigurationError } from '../../src/environment/env-values';
import { loadDevImageApiConfiguration } from './dev-image-api.config';

describe('loadDevImageApiConfiguration', () => {
  it('uses the documented defaults when nothing is set', () => {
    expect(loadDevImageApiConfiguration({})).toEqual({
      port: 4010,
      reply: 'image',
      status: undefined,
      errorMessage: undefined,
      latencyMs: 0,
      retryAfterSeconds: undefined,
    });
  });

  it('reads the values that are set', () => {
    expect(
      loadDevImageApiConfiguration({
        IMAGE_DEV_PORT: '4999',
        IMAGE_DEV_REPLY: 'ERROR',
        IMAGE_DEV_STATUS: '429',
        IMAGE_DEV_ERROR_MESSAGE: 'Rate limit reached',
        IMAGE_DEV_LATENCY_MS: '15000',
        IMAGE_DEV_RETRY_AFTER_S: '2',
      }),
    ).toEqual({
      port: 4999,
      reply: 'error',
      status: 429,
      errorMessage: 'Rate limit reached',
      latencyMs: 15000,
      retryAfterSeconds: 2,
    });
  });

  it.each([
    ['IMAGE_DEV_PORT', '70000'],
    ['IMAGE_DEV_REPLY', 'explode'],
    ['IMAGE_DEV_STATUS', '99'],
    ['IMAGE_DEV_LATENCY_MS', 'slow'],
    ['IMAGE_DEV_RETRY_AFTER_S', '-5'],
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    let error: unknown;
    try {
      loadDevImageApiConfiguration({ [name]: value });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(
      new RegExp(`^Invalid configuration: ${name} must be`),
    );
    expect((error as Error).message).not.toContain('\n');
  });
});
