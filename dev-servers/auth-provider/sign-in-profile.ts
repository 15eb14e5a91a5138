/** The scopes the dev provider grants; any other asked for is left out. */
export const SUPPORTED_SCOPES = [
  'openid',
  'profile',
  'email',
  'offline_access',
];

/** The scopes of a request that the provider grants, in its order, as one string. */
export function grantedScope(requested: string | null): string {
  const asked = new Set((requested ?? '').split(' '));
  return SUPPORTED_SCOPES.filter((scope) => asked.has(scope)).join(' ');
}

/**
 * The claims the dev provider tells of a user for the scopes granted: it
 * has no user directory, so the name is the user id and the address one
 * of the reserved `example.test` domain.
 */
export function profileClaims(
  user: string,
  scope: string,
): { name?: string; email?: string; email_verified?: boolean } {
  const granted = scope.split(' ');
  return {
    ...(granted.includes('profile') ? { name: user } : {}),
    ...(granted.includes('email')
      ? { email: `${user}@example.test`, email_verified: true }
      : {}),
  };
}
