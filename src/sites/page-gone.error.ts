/**
 * The landing page a publish task was queued with is gone (deleted after
 * the task was queued): the task fails with code `source_missing`, not
 * retried (self-described, see task-failure.ts).
 */
export class PageGoneError extends Error {
  readonly code = 'source_missing';
  readonly retryable = false;

  constructor() {
    super('The landing page to publish is no longer kept in this project');
  }
}
