import { authConfig } from './auth.config';

const OIDC = {
  AUTH_MODE: 'oidc',
  AUTH_ISSUER: 'https://auth.example.com',
  AUTH_AUDIENCE: 'a',
};

describe('auth configuration', () => {
  it('lets anyone call by default', () => {
    expect(authConfig({})).toEqual({ mode: 'none' });
  });

  it('reads AUTH_MODE=oidc with its defaults: RS256, ES256, EdDSA; sub; 5 s of clock tolerance', () => {
    expect(
      authConfig({
        AUTH_MODE: 'OIDC',
        AUTH_ISSUER: 'https://auth.example.com/realms/w',
        AUTH_AUDIENCE: 'workspace-api',
      }),
    ).toEqual({
      mode: 'oidc',
      issuer: 'https://auth.example.com/realms/w',
      audience: 'workspace-api',
      jwksUrl: undefined,
      algorithms: ['RS256', 'ES256', 'EdDSA'],
      clockToleranceSeconds: 5,
      userClaim: 'sub',
      adminRole: undefined,
      rolesClaim: 'roles',
      jwksCooldownSeconds: 30,
    });
  });

  it.each(['none', 'HS256', 'RS256,hs512'])(
    'refuses AUTH_ALGORITHMS=%s: only asymmetric algorithms',
    (algorithms) => {
      expect(() =>
        authConfig({ ...OIDC, AUTH_ALGORITHMS: algorithms }),
      ).toThrow(/^Invalid configuration: AUTH_ALGORITHMS /);
    },
  );

  it.each([
    [
      { AUTH_MODE: 'basic' },
      /^Invalid configuration: AUTH_MODE must be none or oidc \(got "basic"\)$/,
    ],
    [
      { AUTH_MODE: 'oidc', AUTH_AUDIENCE: 'a' },
      /AUTH_ISSUER must be set when AUTH_MODE=oidc/,
    ],
    [
      { AUTH_MODE: 'oidc', AUTH_ISSUER: 'https://x' },
      /AUTH_AUDIENCE must be set when AUTH_MODE=oidc/,
    ],
    [
      { ...OIDC, AUTH_ISSUER: 'auth.example.com' },
      /AUTH_ISSUER must be an http\(s\) URL/,
    ],
    [
      { ...OIDC, AUTH_JWKS_URL: 'ftp://keys' },
      /AUTH_JWKS_URL must be an http\(s\) URL/,
    ],
    [{ ...OIDC, AUTH_CLOCK_TOLERANCE_S: '301' }, /AUTH_CLOCK_TOLERANCE_S/],
    [{ ...OIDC, AUTH_JWKS_COOLDOWN_S: '3601' }, /AUTH_JWKS_COOLDOWN_S/],
  ])('refuses %j', (env, message) => {
    expect(() => authConfig(env)).toThrow(message);
  });
});
