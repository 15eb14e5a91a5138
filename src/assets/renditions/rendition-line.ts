import { ClientClosedRequestError } from '../../failures/client-closed-request.error';
import {
  ServiceBusyError,
  TooManyRequestsError,
} from '../../failures/retry-later.error';
import type { RenditionLineLimits } from '../assets.config';

/** Retry-After of a refusal: a rendition takes well under a second to make. */
export const RENDITION_RETRY_AFTER_S = 2;

/**
 * Makes the piece of work once its turn has come; `stillWanted` says
 * whether anyone still waits for it. Resolves undefined when it gave up
 * because nobody did.
 */
export type RenditionWork<T> = (
  stillWanted: () => boolean,
) => Promise<T | undefined>;

interface Waiter<T> {
  clientKey: string;
  resolve(value: T): void;
  reject(error: unknown): void;
  /** Forgets the abort listener; the waiter's place is given back. */
  leave(): void;
}

interface Job<T> {
  waiters: Set<Waiter<T>>;
}

/**
 * The line in front of the resizer. It holds keys of what is to be made,
 * never image bytes: the work reads its input only once its turn has come.
 * Requests for one key share one piece of work; a piece whose requesters
 * all left before its turn is dropped unmade. Bounded per instance (pieces
 * of work in line: 503) and per client (its requests in line: 429).
 */
export class RenditionLine<T> {
  private readonly jobs = new Map<string, Job<T>>();
  private readonly perClient = new Map<string, number>();

  constructor(
    private readonly limits: RenditionLineLimits,
    private readonly onDropped: () => void = () => undefined,
  ) {}

  /** Pieces of work in line or being made. */
  get size(): number {
    return this.jobs.size;
  }

  /**
   * Waits for the piece of work `key` (started by the first request for
   * it) and resolves with what it made. Rejects with
   * ClientClosedRequestError once `signal` aborts, TooManyRequestsError
   * when the client already waits for `clientLimit` pieces, ServiceBusyError
   * when `queueLimit` pieces are in line.
   */
  request(
    key: string,
    clientKey: string,
    signal: AbortSignal,
    work: RenditionWork<T>,
  ): Promise<T> {
    if (signal.aborted) {
      return Promise.reject(new ClientClosedRequestError());
    }
    if ((this.perClient.get(clientKey) ?? 0) >= this.limits.clientLimit) {
      return Promise.reject(
        new TooManyRequestsError(
          'Too many image renditions of this client are being made; try again shortly',
          RENDITION_RETRY_AFTER_S,
        ),
      );
    }
    let job = this.jobs.get(key);
    if (!job) {
      if (this.jobs.size >= this.limits.queueLimit) {
        return Promise.reject(
          new ServiceBusyError(
            'Image renditions are busy; try again shortly',
            RENDITION_RETRY_AFTER_S,
          ),
        );
      }
      job = { waiters: new Set() };
      this.jobs.set(key, job);
      // The first waiter is in before the work can ask whether it is wanted.
      const waiting = this.wait(job, clientKey, signal);
      void this.run(key, job, work);
      return waiting;
    }
    return this.wait(job, clientKey, signal);
  }

  private wait(
    job: Job<T>,
    clientKey: string,
    signal: AbortSignal,
  ): Promise<T> {
    this.perClient.set(clientKey, (this.perClient.get(clientKey) ?? 0) + 1);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        waiter.leave();
        reject(new ClientClosedRequestError());
      };
      let left = false;
      const waiter: Waiter<T> = {
        clientKey,
        resolve,
        reject,
        leave: () => {
          if (left) return;
          left = true;
          signal.removeEventListener('abort', onAbort);
          job.waiters.delete(waiter);
          const count = (this.perClient.get(clientKey) ?? 1) - 1;
          if (count > 0) this.perClient.set(clientKey, count);
          else this.perClient.delete(clientKey);
        },
      };
      job.waiters.add(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private async run(
    key: string,
    job: Job<T>,
    work: RenditionWork<T>,
  ): Promise<void> {
    let outcome: { value: T | undefined } | { error: unknown };
    try {
      outcome = { value: await work(() => job.waiters.size > 0) };
    } catch (error) {
      outcome = { error };
    }
    this.jobs.delete(key);
    const waiters = [...job.waiters];
    if ('value' in outcome && outcome.value === undefined) {
      this.onDropped();
    }
    for (const waiter of waiters) {
      waiter.leave();
      if ('error' in outcome) waiter.reject(outcome.error);
      else if (outcome.value === undefined) {
        waiter.reject(new ClientClosedRequestError());
      } else waiter.resolve(outcome.value);
    }
  }
}
