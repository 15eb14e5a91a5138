/**
 * A brand-kit task whose logo was deleted after it was queued: it fails
 * with code "logo_gone", not retried (self-described, see
 * tasks/task-failure.ts).
 */
export class LogoGoneError extends Error {
  readonly code = 'logo_gone';
  readonly retryable = false;

  constructor() {
    super('The logo the brand kit was to be made from was deleted');
  }
}
