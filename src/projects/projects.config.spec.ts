import { projectsConfig } from './projects.config';

const OIDC = { AUTH_MODE: 'oidc' };

describe('projects configuration', () => {
  it('applies PATCH bodies without length limits and creates without a rate limit by default', () => {
    expect(projectsConfig({})).toEqual({
      patchLengthLimits: false,
      createRateLimit: { limit: 0, windowSeconds: 60 },
    });
  });

  it('reads the values that are set', () => {
    expect(
      projectsConfig({
        PATCH_LENGTH_LIMITS: 'true',
        PROJECT_CREATE_RATE_LIMIT: '30',
        PROJECT_CREATE_RATE_WINDOW_S: '600',
      }),
    ).toEqual({
      patchLengthLimits: true,
      createRateLimit: { limit: 30, windowSeconds: 600 },
    });
  });

  it('limits creates per user by default only with AUTH_MODE=oidc (120 per window); without auth it stays off, as the contract has it', () => {
    expect(projectsConfig({}).createRateLimit.limit).toBe(0);
    expect(projectsConfig(OIDC).createRateLimit.limit).toBe(120);
    expect(
      projectsConfig({ ...OIDC, PROJECT_CREATE_RATE_LIMIT: '0' })
        .createRateLimit.limit,
    ).toBe(0);
  });

  it.each([
    ['PATCH_LENGTH_LIMITS', 'sometimes'],
    ['PROJECT_CREATE_RATE_LIMIT', '-1'],
    ['PROJECT_CREATE_RATE_WINDOW_S', '0'],
  ])('refuses %s=%s with one line naming it', (name, value) => {
    expect(() => projectsConfig({ [name]: value })).toThrow(
      new RegExp(`^Invalid configuration: ${name} must be`),
    );
  });
});
