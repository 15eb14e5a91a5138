import type { ErrorCode } from '../failures/error-codes';
import { RetryLaterError } from '../failures/retry-later.error';

/**
 * 429: the call's estimated cost would take its user's day (or its
 * project's month) over the budget; nothing was sent upstream. Retry-After
 * counts to the UTC day's (or month's) turn, when the budget starts again.
 * `retryable: false` for a task: waiting hours inside a worker helps no one,
 * the task fails with this code.
 */
export class BudgetExceededError extends RetryLaterError {
  readonly status = 429;
  readonly code: ErrorCode = 'budget_exceeded';
  readonly retryable = false;
}
