import { processConfig } from './process.config';

describe('process configuration', () => {
  it('listens on 127.0.0.1:3000 and drains for 25 s by default', () => {
    expect(processConfig({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      shutdownTimeoutMs: 25000,
    });
  });

  it('reads the values that are set', () => {
    expect(
      processConfig({
        PORT: '8080',
        HOST: '0.0.0.0',
        SHUTDOWN_TIMEOUT_MS: '5000',
      }),
    ).toEqual({ port: 8080, host: '0.0.0.0', shutdownTimeoutMs: 5000 });
  });

  it('treats a blank variable as unset', () => {
    const config = processConfig({ PORT: ' ', HOST: '' });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['SHUTDOWN_TIMEOUT_MS', 'soon'],
  ])('refuses %s=%s with one line naming it', (name, value) => {
    expect(() => processConfig({ [name]: value })).toThrow(
      new RegExp(`^Invalid configuration: ${name} must be an integer from`),
    );
  });
});
