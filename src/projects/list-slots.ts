import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { limitsConfig } from '../common/limits.config';
import { BoundedSlots } from '../common/concurrency/bounded-slots';
import { TooManyRequestsError } from '../failures/retry-later.error';

export const TOO_MANY_LISTS_MESSAGE =
  'Too many lists in progress for this client, retry later';

/** Retry-After of that refusal: a list usually ends within seconds. */
const RETRY_AFTER_SECONDS = 5;

/**
 * How long a list beyond its client's share waits for one of that client's
 * lists to end before it is refused: lists of an ordinary size end within
 * milliseconds, so lists a page asks for together are all served.
 */
export const LIST_SLOT_WAIT_MS = 10_000;

/**
 * The full (streamed) lists each client runs at once in this process, at
 * most LIST_CLIENT_LIMIT: one caller cannot take every list connection
 * (PostgreSQL) or every snapshot by opening lists and reading them slowly.
 * One more waits up to LIST_SLOT_WAIT_MS for one of its own to end.
 */
@Injectable()
export class ListSlots {
  private readonly slots: BoundedSlots;

  constructor(
    @Inject(limitsConfig.KEY) config: ConfigType<typeof limitsConfig>,
  ) {
    this.slots = new BoundedSlots(config.listClientLimit, LIST_SLOT_WAIT_MS);
  }

  /**
   * Takes one of `client`'s slots, or rejects with TooManyRequestsError
   * (429). The returned function gives it back (once, however often
   * called).
   */
  take(client: string): Promise<() => void> {
    return this.slots.take(
      client,
      () =>
        new TooManyRequestsError(TOO_MANY_LISTS_MESSAGE, RETRY_AFTER_SECONDS),
    );
  }
}
