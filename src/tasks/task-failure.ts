import { AssetLimitReachedException } from '../assets/assets.errors';
import { RetryLaterError } from '../failures/retry-later.error';
import { BudgetExceededError } from '../usage/budget-exceeded.error';
import { ImageApiCallError } from '../logo/image-api-call.error';
import { LogoGenerationError } from '../logo/logo-generation.error';
import { KEY_MISSING_MESSAGE, TIMEOUT_MESSAGE } from '../logo/logo.constants';
import {
  TASK_ERROR_CODES,
  type TaskErrorCode,
  type TaskErrorDto,
} from './dto/task.dto';

/** Why an attempt failed, and whether another attempt may succeed. */
export interface TaskFailure {
  error: TaskErrorDto;
  retryable: boolean;
  /** The provider's (or our own line's) Retry-After, when it gave one. */
  retryAfterMs?: number;
}

/** A failure that says itself what it is (the text and code models'). */
interface SelfDescribed {
  code: TaskErrorCode;
  message: string;
  retryable: boolean;
  retryAfterMs?: number;
}

// Only a code the document lists (TASK_ERROR_CODES) is told to clients:
// a program switches on it.
const isSelfDescribed = (error: unknown): error is SelfDescribed =>
  error instanceof Error &&
  (TASK_ERROR_CODES as readonly unknown[]).includes(
    (error as Partial<SelfDescribed>).code,
  ) &&
  typeof (error as Partial<SelfDescribed>).retryable === 'boolean';

/**
 * What a task's error says: the provider's own message where there is
 * one (never a stack, a URL or a key: the errors of the model clients are
 * written for clients already); a refusal (4xx) is not retried, an outage
 * (429, 5xx, a timeout, a full line) is.
 */
export function describeTaskFailure(error: unknown): TaskFailure {
  if (error instanceof ImageApiCallError) {
    // The same code as the logo route's: a program tells it from a refusal.
    if (error.code === 'moderation_blocked') {
      return fatal('moderation_blocked', error.message);
    }
    const code = !error.retryable
      ? 'refused'
      : error.outcome === 'timeout'
        ? 'timeout'
        : 'upstream_error';
    return {
      error: { code, message: error.message },
      retryable: error.retryable,
      retryAfterMs: error.retryAfterMs,
    };
  }
  if (error instanceof LogoGenerationError) {
    if (error.message === KEY_MISSING_MESSAGE) {
      return fatal('not_configured', error.message);
    }
    if (error.message === TIMEOUT_MESSAGE) {
      return {
        error: { code: 'timeout', message: error.message },
        retryable: true,
      };
    }
    return fatal('invalid_answer', error.message);
  }
  // Nothing was sent upstream; another attempt before the budget's period
  // turns would be refused the same way.
  if (error instanceof BudgetExceededError) {
    return fatal('budget_exceeded', error.message);
  }
  if (error instanceof RetryLaterError) {
    return {
      error: { code: 'busy', message: error.message },
      retryable: true,
      retryAfterMs: error.retryAfterSeconds * 1000,
    };
  }
  if (error instanceof AssetLimitReachedException) {
    return fatal('asset_limit', error.message);
  }
  if (isSelfDescribed(error)) {
    return {
      error: { code: error.code, message: error.message },
      retryable: error.retryable,
      retryAfterMs: error.retryAfterMs,
    };
  }
  // Ours (a database that went away, a bug): logged by the runner with
  // its detail, told to the client without it.
  return {
    error: { code: 'internal', message: 'The task failed' },
    retryable: true,
  };
}

const fatal = (code: TaskErrorCode, message: string): TaskFailure => ({
  error: { code, message },
  retryable: false,
});
