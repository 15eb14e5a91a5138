/**
 * The kept logo a logo-edit task starts from is gone (deleted after the
 * task was queued) or is no longer a PNG, JPEG or WebP: the task fails
 * with code `source_missing`, not retried.
 */
export class LogoEditSourceError extends Error {
  readonly code = 'source_missing';
  readonly retryable = false;

  constructor() {
    super('The logo to edit is no longer kept in this project');
  }
}
