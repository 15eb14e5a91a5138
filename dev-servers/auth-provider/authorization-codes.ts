import { createHash, randomBytes } from 'node:crypto';

/** How long a code may wait for its exchange: a redirect, not a session. */
const CODE_LIFETIME_MS = 60_000;

export interface CodeGrant {
  clientId: string;
  redirectUri: string;
  /** BASE64URL(SHA-256(code_verifier)): only S256 is accepted. */
  codeChallenge: string;
  /** The signed-in user and what the sign-in granted. */
  session: SignInSession;
}

/** A user's sign-in, carried from the code to its tokens and their refreshes. */
export interface SignInSession {
  user: string;
  /** The scopes granted (those asked for that the provider knows). */
  scope: string;
  /** The `nonce` of the authorization request, echoed in the first ID token. */
  nonce?: string;
  /** When the user signed in (seconds since the epoch): the ID tokens' `auth_time`. */
  authTime: number;
}

/**
 * The authorization codes of the dev provider's PKCE sign-in, in memory:
 * each one redeemable once, within a minute, by the client and redirect
 * URI it was issued to and with the verifier of its challenge.
 */
export class AuthorizationCodes {
  private readonly codes = new Map<string, CodeGrant & { expires: number }>();

  issue(grant: CodeGrant): string {
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, { ...grant, expires: Date.now() + CODE_LIFETIME_MS });
    return code;
  }

  /** The sign-in the code was issued for, or undefined for any mismatch. */
  redeem(
    code: string,
    exchange: { clientId: string; redirectUri: string; codeVerifier: string },
  ): SignInSession | undefined {
    const grant = this.codes.get(code);
    // Single use: a code that was presented once is gone, right or wrong.
    this.codes.delete(code);
    if (!grant || grant.expires < Date.now()) return undefined;
    const challenge = createHash('sha256')
      .update(exchange.codeVerifier)
      .digest('base64url');
    if (
      grant.clientId !== exchange.clientId ||
      grant.redirectUri !== exchange.redirectUri ||
      grant.codeChallenge !== challenge
    ) {
      return undefined;
    }
    return grant.session;
  }
}
