import type { ErrorCode } from './error-codes';

/**
 * A failure whose message was written for the client. Routes that opt in
 * (see FailureMessage) answer with this message; everywhere else the route's
 * fixed failure text is shown instead.
 */
export class PublicError extends Error {
  constructor(
    message: string,
    /**
     * What an operator needs beyond the client's message (the host that
     * could not be reached, the socket error code). Logged, never sent.
     */
    readonly logDetail?: string,
    /** The body's `code`: what failed, for a program to tell apart. */
    readonly code: ErrorCode = 'internal_error',
  ) {
    super(message);
    this.name = new.target.name;
  }
}
