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
  ) {
    super(message);
    this.name = new.target.name;
  }
}
