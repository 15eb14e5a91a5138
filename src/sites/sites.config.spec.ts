import { sitesConfig } from './sites.config';

describe('sitesConfig', () => {
  it('defaults: port 3001 on the API host, http://localhost:3001, the database store', () => {
    expect(sitesConfig({ HOST: '0.0.0.0' })).toEqual({
      port: 3001,
      host: '0.0.0.0',
      baseUrl: 'http://localhost:3001',
      store: 'database',
    });
  });

  it('reads its variables; the base URL loses its trailing slash', () => {
    expect(
      sitesConfig({
        SITES_PORT: '8081',
        SITES_HOST: '127.0.0.1',
        SITES_BASE_URL: 'https://sites.example.com/',
        SITES_STORE: 's3',
        ASSET_STORE: 's3',
      }),
    ).toEqual({
      port: 8081,
      host: '127.0.0.1',
      baseUrl: 'https://sites.example.com',
      store: 's3',
    });
  });

  it.each([
    [{ SITES_PORT: '70000' }, 'SITES_PORT'],
    [{ SITES_BASE_URL: 'ftp://x' }, 'SITES_BASE_URL'],
    [{ SITES_STORE: 'disk' }, 'SITES_STORE'],
    [{ SITES_STORE: 's3' }, 'SITES_STORE can be s3 only when ASSET_STORE=s3'],
  ])('refuses %j', (env, message) => {
    expect(() => sitesConfig(env)).toThrow(message);
  });
});
