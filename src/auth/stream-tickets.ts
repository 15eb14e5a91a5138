import { createHmac, timingSafeEqual } from 'node:crypto';
import { AuthFailure } from '../failures/auth-failure.error';
import type { Caller } from '../common/http/request-context';

/** How long a ticket may be used to open a stream. */
export const TICKET_TTL_MS = 60_000;

interface TicketClaims {
  /** The user, admin or not. */
  u: string;
  a: boolean;
  /** The ticket's own expiry (opening a stream), ms. */
  e: number;
  /** The bearer token's expiry: a stream opened with the ticket ends then. */
  x?: number;
}

/**
 * Short-lived signed tickets for live-change streams: a browser's
 * EventSource cannot send an Authorization header, so a caller proven by
 * its token asks for a ticket (POST /api/events/tickets) and puts it in the
 * stream's URL. A ticket names its user, works for a minute, and the stream
 * it opens ends when the token it was issued for expires. Its HMAC key is
 * derived from ASSET_URL_SIGNING_KEY (the same on every replica, so a
 * stream can reconnect to another), under another purpose than asset URLs:
 * neither signature can stand for the other.
 */
export class StreamTickets {
  private readonly key: Buffer;

  constructor(signingKey: string) {
    this.key = createHmac('sha256', signingKey)
      .update('workspace-api live-change stream tickets')
      .digest();
  }

  issue(caller: Caller, now = Date.now()): string {
    const claims: TicketClaims = {
      u: caller.userId,
      a: caller.admin,
      e: now + TICKET_TTL_MS,
      ...(caller.expiresAt === undefined ? {} : { x: caller.expiresAt }),
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The caller a ticket proves; 401 when forged, malformed or expired. */
  verify(ticket: string, now = Date.now()): Caller {
    const refused = (reason: string) =>
      AuthFailure.unauthorized(`stream ticket ${reason}`, 'invalid_token');
    // A ticket is ~150 characters; anything far longer is not one.
    if (ticket.length > 1024) throw refused('too long');
    const [payload, signature, extra] = ticket.split('.');
    if (!payload || !signature || extra !== undefined) {
      throw refused('malformed');
    }
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw refused('with a wrong signature');
    }
    const claims = JSON.parse(
      Buffer.from(payload, 'base64url').toString('utf8'),
    ) as TicketClaims;
    if (claims.e <= now) throw refused('expired');
    if (claims.x !== undefined && claims.x <= now) {
      throw refused('whose token expired');
    }
    return { userId: claims.u, admin: claims.a, expiresAt: claims.x };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
