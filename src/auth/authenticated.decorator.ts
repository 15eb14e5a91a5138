import { SetMetadata } from '@nestjs/common';

export const AUTHENTICATED = 'workspace:authenticated';

/**
 * Marks a controller whose routes need a proven caller when
 * AUTH_MODE=oidc (every /api route); health, metrics and docs stay open.
 */
export const Authenticated = () => SetMetadata(AUTHENTICATED, true);
