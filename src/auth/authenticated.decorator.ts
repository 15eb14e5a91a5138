import { SetMetadata } from '@nestjs/common';

export const AUTHENTICATED = 'workspace:authenticated';

/**
 * Marks a controller whose routes need a proven caller when
 * AUTH_MODE=oidc (every /api route); health, metrics and docs stay open.
 */
export const Authenticated = () => SetMetadata(AUTHENTICATED, true);

export const STREAM_TICKETS = 'workspace:stream-tickets';

/**
 * Marks a live-change stream route: with AUTH_MODE=oidc it also accepts a
 * stream ticket in `?ticket=` in place of the Authorization header
 * (EventSource cannot send headers; stream-tickets.ts).
 */
export const AcceptsStreamTicket = () => SetMetadata(STREAM_TICKETS, true);
