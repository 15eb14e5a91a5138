import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { idempotencyConfig } from './idempotency.config';
import { BatchedPurge } from '../database/batched-purge';
import type { Transaction } from '../database/database.service';
import type {
  IdempotentKey,
  IdempotentRequest,
} from './idempotency-key.decorator';
import type { ReplayableAnswer } from './replayable-answer';
import {
  IdempotencyKeyInUseError,
  IdempotencyKeyReusedError,
} from './idempotency-key.error';
import {
  IdempotencyRecord,
  IdempotencyRepository,
} from './idempotency.repository';
import type { Replayed } from './replayed';

/** Answers worth replaying: the work is done and would not be redone. */
const isStored = (status: number) => status >= 200 && status < 300;

/** Expired records are deleted this many at a time, one statement each. */
const PURGE_BATCH = 500;

/**
 * Idempotency-Key (the IETF HTTPAPI draft, as Stripe practises it): the
 * first request with a key does the work and its 2xx answer is stored; a
 * retry with the same key and body gets that answer again, byte for byte,
 * without the work. Records live in the database, so every replica sees
 * them, and expire after IDEMPOTENCY_TTL_S.
 */
@Injectable()
export class IdempotencyService
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger(IdempotencyService.name);
  private readonly ttlMs: number;
  private readonly purger = new BatchedPurge(
    'expired idempotency keys',
    PURGE_BATCH,
    (now, limit) => this.records.purgeExpired(now, limit),
    this.logger,
  );

  constructor(
    private readonly records: IdempotencyRepository,
    @Inject(idempotencyConfig.KEY) config: ConfigType<typeof idempotencyConfig>,
  ) {
    this.ttlMs = config.ttlSeconds * 1000;
  }

  /**
   * Inside the transaction that does the work: stores the answer of its
   * result under the key, so both commit together or not at all. False
   * when the key already has a record: the caller does nothing and replays
   * it instead.
   */
  async recordInTransaction<T>(
    transaction: Transaction,
    request: IdempotentRequest<T>,
    result: T,
  ): Promise<boolean> {
    const answer = request.answerOf(result);
    const now = Date.now();
    return this.records.insertInTransaction(
      transaction,
      {
        id: request.recordId,
        fingerprint: request.fingerprint,
        expiresAt: now + this.ttlMs,
        answer: storable(answer),
      },
      now,
    );
  }

  /**
   * For runAnsweredByWork's work, which ends in a transaction of its own (a
   * kept logo, a queued task): stores the leased key's answer of the
   * work's result in it, so that the work's effect and the answer commit
   * together and no crash between them can make a retry do the work twice.
   */
  async answerInTransaction<T>(
    transaction: Transaction,
    request: IdempotentRequest<T>,
    result: T,
  ): Promise<void> {
    await this.records.completeInTransaction(
      transaction,
      request.recordId,
      storable(request.answerOf(result)),
    );
  }

  /**
   * The stored answer for a key whose record exists; 422 when the body
   * differs, 409 while the first request is in progress. Undefined when
   * the record has expired meanwhile.
   */
  async replay(request: IdempotentKey): Promise<Replayed | undefined> {
    const record = await this.records.findLive(request.recordId, Date.now());
    return record ? this.answerFrom(record, request) : undefined;
  }

  /**
   * For work that cannot share a transaction with its record (a call to
   * another service): the key is leased first, for at most `leaseMs`, then
   * the work runs, then the answer of its result is stored — or,
   * if it is not worth storing or the work throws, the key is freed for a
   * retry. A lease whose process died is taken over once it has run out.
   */
  async run<T extends object>(
    request: IdempotentRequest<T>,
    leaseMs: number,
    work: () => Promise<T>,
  ): Promise<T | Replayed> {
    const leased = await this.lease(request, leaseMs);
    if (leased !== true) return leased;
    const result = await this.leased(request, work);
    const answer = request.answerOf(result);
    if (isStored(answer.status)) {
      await this.records.complete(request.recordId, storable(answer));
    } else {
      await this.release(request);
    }
    return result;
  }

  /**
   * As run, for work that stores its answer in the transaction of its
   * effect (answerInTransaction): the key is leased, the work runs, and
   * the key is freed again only if the work throws.
   */
  async runAnsweredByWork<T>(
    key: IdempotentKey,
    leaseMs: number,
    work: () => Promise<T>,
  ): Promise<T | Replayed> {
    const leased = await this.lease(key, leaseMs);
    if (leased !== true) return leased;
    return this.leased(key, work);
  }

  onApplicationBootstrap(): void {
    this.purger.start();
  }

  onApplicationShutdown(): void {
    this.purger.stop();
  }

  /** Deletes the expired records now (also every minute); how many went. */
  purge(now = Date.now()): Promise<number> {
    return this.purger.run(now);
  }

  /** The work of a leased key; the key is freed when it throws. */
  private async leased<T>(key: IdempotentKey, work: () => Promise<T>) {
    try {
      return await work();
    } catch (error) {
      await this.release(key);
      throw error;
    }
  }

  /** True when this request now holds the key; otherwise the replay. */
  private async lease(
    request: IdempotentKey,
    leaseMs: number,
  ): Promise<true | Replayed> {
    // A record can expire between two statements; a few tries settle it.
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = Date.now();
      const lease = {
        id: request.recordId,
        fingerprint: request.fingerprint,
        lockedUntil: now + leaseMs,
        expiresAt: now + this.ttlMs,
      };
      const taken = await this.records.lease(lease, now);
      if (taken) return true;
      const replayed = await this.replay(request);
      if (replayed) return replayed;
    }
    throw new IdempotencyKeyInUseError(1);
  }

  /** Never throws: a key that cannot be freed now is free when its lease ends. */
  private async release(request: IdempotentKey): Promise<void> {
    try {
      await this.records.release(request.recordId);
    } catch (error) {
      this.logger.warn(
        `Freeing an idempotency key failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private answerFrom(
    record: IdempotencyRecord,
    request: IdempotentKey,
  ): Replayed {
    if (record.fingerprint !== request.fingerprint) {
      throw new IdempotencyKeyReusedError();
    }
    if (record.status === null || record.body === null) {
      const waitMs = Math.max(0, (record.lockedUntil ?? 0) - Date.now());
      throw new IdempotencyKeyInUseError(
        Math.min(Math.max(1, Math.ceil(waitMs / 1000)), 10),
      );
    }
    return {
      replayed: {
        status: record.status,
        headers: JSON.parse(record.headers ?? '{}') as Record<string, string>,
        body: record.body,
      },
    };
  }
}

const storable = (answer: ReplayableAnswer) => ({
  status: answer.status,
  body: answer.body ?? '',
  headers: JSON.stringify(answer.headers),
});
