import { setTimeout as delay } from 'node:timers/promises';
import { RetryLaterError } from '../../failures/retry-later.error';
import { BudgetExceededError } from '../../usage/budget-exceeded.error';

/** How long a task waits, in all, for its turn in the image line before it fails busy. */
export const TURN_WAIT_MS = 5 * 60_000;

/**
 * One image call of a task, waiting for a turn when the line is full: an
 * interactive request is answered 429/503 at once, a task waits
 * Retry-After at a time, up to TURN_WAIT_MS in all.
 */
export async function waitInLine<T>(
  signal: AbortSignal,
  call: () => Promise<T>,
): Promise<T> {
  const giveUpAt = Date.now() + TURN_WAIT_MS;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      // Over a spend budget: no turn in the line comes before the day turns.
      if (
        !(error instanceof RetryLaterError) ||
        error instanceof BudgetExceededError ||
        Date.now() > giveUpAt
      ) {
        throw error;
      }
      await delay(Math.max(1, error.retryAfterSeconds) * 1000, undefined, {
        signal,
      });
    }
  }
}
