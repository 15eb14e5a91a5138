import { randomBytes } from 'node:crypto';
import type { SignInSession } from './authorization-codes';

/** How long a refresh token may be used: a working day of a dev session. */
const REFRESH_LIFETIME_MS = 24 * 3600_000;
/** The most refresh tokens held; the oldest is forgotten first. */
const MAX_TOKENS = 10_000;

interface Held {
  clientId: string;
  session: SignInSession;
  expires: number;
}

/**
 * The dev provider's refresh tokens, in memory. Each is used once: a
 * refresh answers a new one and forgets the old (rotation, as a provider
 * does for a public client, RFC 9700 §4.14.2), so a leaked token that was
 * already used refreshes nothing.
 */
export class RefreshTokens {
  private readonly tokens = new Map<string, Held>();

  issue(clientId: string, session: SignInSession): string {
    const token = randomBytes(32).toString('base64url');
    if (this.tokens.size >= MAX_TOKENS) {
      const oldest = this.tokens.keys().next().value as string;
      this.tokens.delete(oldest);
    }
    this.tokens.set(token, {
      clientId,
      session,
      expires: Date.now() + REFRESH_LIFETIME_MS,
    });
    return token;
  }

  /** The sign-in the token continues, or undefined (unknown, used, expired, another client's). */
  redeem(token: string, clientId: string): SignInSession | undefined {
    const held = this.tokens.get(token);
    this.tokens.delete(token);
    if (!held || held.expires < Date.now() || held.clientId !== clientId) {
      return undefined;
    }
    return held.session;
  }
}
