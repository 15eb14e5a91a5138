/**
 * The page a site check reads, or the page and report a landing page's
 * fix reads, is gone (deleted after the task was queued) or no longer
 * what it was: the task fails with code `source_missing`, not retried.
 */
export class PageGoneError extends Error {
  readonly code = 'source_missing';
  readonly retryable = false;

  constructor(
    message = 'The landing page to check is no longer kept in this project',
  ) {
    super(message);
  }
}
