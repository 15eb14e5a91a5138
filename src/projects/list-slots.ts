import { Inject, Injectable } from '@nestjs/common';
import { appConfig } from '../../config/app.config';
import type { AppConfig } from '../../config/environment';
import { TooManyRequestsError } from '../common/errors/retry-later.error';

export const TOO_MANY_LISTS_MESSAGE =
  'Too many lists in progress for this client, retry later';

/** Retry-After of that refusal: a list usually ends within seconds. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The full (streamed) lists each client runs at once in this process, at
 * most LIST_CLIENT_LIMIT: one caller cannot take every list connection
 * (PostgreSQL) or every snapshot by opening lists and reading them slowly.
 */
@Injectable()
export class ListSlots {
  private readonly running = new Map<string, number>();
  private readonly limit: number;

  constructor(@Inject(appConfig.KEY) config: AppConfig) {
    this.limit = config.listClientLimit;
  }

  /**
   * Takes one of `client`'s slots, or throws TooManyRequestsError (429).
   * The returned function gives it back (once, however often called).
   */
  take(client: string): () => void {
    const held = this.running.get(client) ?? 0;
    if (held >= this.limit) {
      throw new TooManyRequestsError(
        TOO_MANY_LISTS_MESSAGE,
        RETRY_AFTER_SECONDS,
      );
    }
    this.running.set(client, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.running.get(client) ?? 1) - 1;
      if (left > 0) this.running.set(client, left);
      else this.running.delete(client);
    };
  }
}
