import { SetMetadata } from '@nestjs/common';

export const AUTHENTICATED = 'workspace:authenticated';

/**
 * Marks a controller whose routes need a proven caller when
 * AUTH_MODE=oidc (every /api route); health, metrics and docs stay open.
 */
export const Authenticated = () => SetMetadata(AUTHENTICATED, true);

export const USER_ID_FROM_CALLER = 'workspace:user-id-from-caller';

/**
 * With AUTH_MODE=oidc, a body that leaves `userId` out gets the caller's
 * (before validation, which would otherwise require it).
 */
export const UserIdFromCaller = () => SetMetadata(USER_ID_FROM_CALLER, true);
