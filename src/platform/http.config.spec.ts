import { ConfigurationError } from '../environment/env-values';
import { httpConfig } from './http.config';

function refusal(env: Record<string, string>): ConfigurationError {
  try {
    httpConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('HTTP configuration', () => {
  it('has CORS off, trusts no proxy and takes URLs from each request by default', () => {
    expect(httpConfig({})).toEqual({
      corsOrigins: undefined,
      trustProxy: false,
      publicBaseUrl: undefined,
    });
  });

  it('reads CORS_ORIGINS as * or a list of origins', () => {
    expect(httpConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    expect(
      httpConfig({
        CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
      }).corsOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:5173']);
  });

  it.each([
    'app.example.com',
    'https://app.example.com/path',
    'ftp://files.example.com',
  ])('refuses CORS_ORIGINS=%s', (value) => {
    expect(refusal({ CORS_ORIGINS: value }).message).toMatch(
      /^Invalid configuration: CORS_ORIGINS must be \* or a comma-separated list of origins/,
    );
  });

  it('reads TRUST_PROXY as off, every hop, a hop count or a list of addresses', () => {
    expect(httpConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(httpConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(httpConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(httpConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(
      httpConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8, 192.168.1.7' })
        .trustProxy,
    ).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.168.1.7']);
  });

  it.each(['maybe', '10.0.0.0/33', '300.1.1.1', '101', 'loopback,,'])(
    'refuses TRUST_PROXY=%s with one line naming the variable',
    (value) => {
      const error = refusal({ TRUST_PROXY: value });
      expect(error.message).toMatch(/^Invalid configuration: TRUST_PROXY /);
      expect(error.message).toContain(`(got "${value}")`);
    },
  );

  it('keeps PUBLIC_BASE_URL without its trailing slash', () => {
    expect(
      httpConfig({ PUBLIC_BASE_URL: 'https://api.example.com/workspace/' })
        .publicBaseUrl,
    ).toBe('https://api.example.com/workspace');
  });

  it.each([
    'ftp://files.example.com',
    'https://api.example.com/?x=1',
    'https://user:pw@api.example.com',
  ])('refuses PUBLIC_BASE_URL=%s with one line naming it', (value) => {
    expect(refusal({ PUBLIC_BASE_URL: value }).message).toMatch(
      /^Invalid configuration: PUBLIC_BASE_URL /,
    );
  });
});
