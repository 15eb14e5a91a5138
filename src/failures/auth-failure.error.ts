/**
 * A caller refused by authentication (401, with the RFC 6750 challenge in
 * WWW-Authenticate) or by isolation (403). The body says only
 * "Unauthorized" or "Forbidden"; `reason` is for the log line.
 */
export class AuthFailure extends Error {
  private constructor(
    readonly status: 401 | 403,
    message: 'Unauthorized' | 'Forbidden',
    readonly reason: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AuthFailure';
  }

  /**
   * 401. `error` is RFC 6750's code: absent when no credentials were sent,
   * `invalid_request` for a malformed header, `invalid_token` otherwise.
   */
  static unauthorized(
    reason: string,
    error?: 'invalid_request' | 'invalid_token',
  ): AuthFailure {
    const challenge = error
      ? `Bearer realm="workspace-api", error="${error}"`
      : 'Bearer realm="workspace-api"';
    return new AuthFailure(401, 'Unauthorized', reason, {
      'WWW-Authenticate': challenge,
    });
  }

  /** 403: a proven caller asked for another user's data. */
  static forbidden(reason: string): AuthFailure {
    return new AuthFailure(403, 'Forbidden', reason);
  }
}
