/**
 * A failure whose message was written for the client. Routes that opt in
 * (see FailureMessage) answer with this message; everywhere else the route's
 * fixed failure text is shown instead.
 */
export class PublicError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
