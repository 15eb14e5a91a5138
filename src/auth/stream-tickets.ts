import { createHmac, timingSafeEqual } from 'node:crypto';
import { AuthFailure } from '../failures/auth-failure.error';
import type { Caller } from '../common/call-context';

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
  /** The project whose stream it opens; absent: the unscoped stream only. */
  p?: string;
}

/**
 * Short-lived signed tickets for live-change streams: a browser's
 * EventSource cannot send an Authorization header, so a caller proven by
 * its token asks for a ticket (POST /api/events/tickets) and puts it in the
 * stream's URL. A ticket names its user, works for a minute, and the stream
 * it opens ends when the token it was issued for expires. It opens only
 * the stream it was issued for — one project's, or the unscoped one — so a
 * ticket seen in one URL (a log, a proxy) opens no other. It is not
 * single-use: EventSource reconnects with the same URL, and a second use
 * within its minute opens only what the first did. Its HMAC key is
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

  /** A ticket for `projectId`'s stream, or (undefined) the unscoped one. */
  issue(
    caller: Caller,
    projectId: string | undefined,
    now = Date.now(),
  ): string {
    const claims: TicketClaims = {
      u: caller.userId,
      a: caller.admin,
      e: now + TICKET_TTL_MS,
      ...(caller.expiresAt === undefined ? {} : { x: caller.expiresAt }),
      ...(projectId === undefined ? {} : { p: projectId }),
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /**
   * The caller a ticket proves on the stream of `projectId` (undefined: the
   * unscoped stream); 401 when forged, malformed, expired, or issued for
   * another stream.
   */
  verify(
    ticket: string,
    projectId: string | undefined,
    now = Date.now(),
  ): Caller {
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
    if (claims.p !== projectId) throw refused('for another stream');
    return { userId: claims.u, admin: claims.a, expiresAt: claims.x };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
