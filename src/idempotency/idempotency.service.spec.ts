import { Test } from '@nestjs/testing';
import type { Transaction } from '../database/database.service';
import type { IdempotentRequest } from './idempotency-key.decorator';
import {
  IdempotencyKeyInUseError,
  IdempotencyKeyReusedError,
} from './idempotency-key.error';
import { idempotencyConfig } from './idempotency.config';
import {
  IdempotencyRepository,
  type IdempotencyRecord,
} from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

interface Made {
  id: string;
}

const answerOf = (made: Made) => ({
  status: 201,
  headers: { Location: `/things/${made.id}` },
  body: JSON.stringify(made),
});

const request: IdempotentRequest<Made> = {
  recordId: 'record-1',
  fingerprint: 'body-1',
  answerOf,
};

const stored = (overrides: Partial<IdempotencyRecord> = {}) => ({
  fingerprint: 'body-1',
  status: 201,
  body: '{"id":"first"}',
  headers: '{"Location":"/things/first"}',
  lockedUntil: null,
  ...overrides,
});

describe('IdempotencyService', () => {
  let service: IdempotencyService;
  let records: {
    lease: jest.Mock;
    findLive: jest.Mock;
    complete: jest.Mock;
    completeInTransaction: jest.Mock;
    insertInTransaction: jest.Mock;
    release: jest.Mock;
    purgeExpired: jest.Mock;
  };

  beforeEach(async () => {
    records = {
      lease: jest.fn().mockResolvedValue(true),
      findLive: jest.fn().mockResolvedValue(undefined),
      complete: jest.fn().mockResolvedValue(undefined),
      completeInTransaction: jest.fn().mockResolvedValue(undefined),
      insertInTransaction: jest.fn().mockResolvedValue(true),
      release: jest.fn().mockResolvedValue(undefined),
      purgeExpired: jest.fn().mockResolvedValue(0),
    };
    const moduleRef = await Test.createTestingModule({
      providers: [
        IdempotencyService,
        { provide: IdempotencyRepository, useValue: records },
        { provide: idempotencyConfig.KEY, useValue: { ttlSeconds: 60 } },
      ],
    }).compile();
    service = moduleRef.get(IdempotencyService);
  });

  it('the first request with a key does the work and stores the answer of its result', async () => {
    const result = await service.run(request, 1000, () =>
      Promise.resolve({ id: 'new' }),
    );
    expect(result).toEqual({ id: 'new' });
    expect(records.complete).toHaveBeenCalledWith('record-1', {
      status: 201,
      body: '{"id":"new"}',
      headers: '{"Location":"/things/new"}',
    });
  });

  it('a retry gets the stored answer without the work', async () => {
    records.lease.mockResolvedValue(false);
    records.findLive.mockResolvedValue(stored());
    const work = jest.fn();
    const result = await service.run(request, 1000, work);
    expect(work).not.toHaveBeenCalled();
    expect(result).toEqual({
      replayed: {
        status: 201,
        headers: { Location: '/things/first' },
        body: '{"id":"first"}',
      },
    });
  });

  it('a retry with another body is refused with 422', async () => {
    records.lease.mockResolvedValue(false);
    records.findLive.mockResolvedValue(stored({ fingerprint: 'body-2' }));
    await expect(
      service.run(request, 1000, () => Promise.resolve({ id: 'x' })),
    ).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
  });

  it('a retry while the first request works is 409, asked to come back when its lease ends (1 to 10 s)', async () => {
    records.lease.mockResolvedValue(false);
    records.findLive.mockResolvedValue(
      stored({ status: null, body: null, lockedUntil: Date.now() + 60_000 }),
    );
    const refused = await service
      .run(request, 1000, () => Promise.resolve({ id: 'x' }))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(IdempotencyKeyInUseError);
    expect((refused as IdempotencyKeyInUseError).retryAfterSeconds).toBe(10);
  });

  it('work that throws frees the key for a retry, and stores nothing', async () => {
    await expect(
      service.run(request, 1000, () => Promise.reject(new Error('upstream'))),
    ).rejects.toThrow('upstream');
    expect(records.release).toHaveBeenCalledWith('record-1');
    expect(records.complete).not.toHaveBeenCalled();
  });

  it('an answer not worth replaying (not 2xx) frees the key instead of storing it', async () => {
    const failing: IdempotentRequest<Made> = {
      ...request,
      answerOf: () => ({ status: 500, headers: {}, body: '{}' }),
    };
    await service.run(failing, 1000, () => Promise.resolve({ id: 'x' }));
    expect(records.complete).not.toHaveBeenCalled();
    expect(records.release).toHaveBeenCalledWith('record-1');
  });

  it("work answered in its own transaction stores the route's answer of its result there", async () => {
    const transaction = {} as Transaction;
    const result = await service.runAnsweredByWork(request, 1000, async () => {
      const made = { id: 'kept' };
      await service.answerInTransaction(transaction, request, made);
      return made;
    });
    expect(result).toEqual({ id: 'kept' });
    expect(records.completeInTransaction).toHaveBeenCalledWith(
      transaction,
      'record-1',
      {
        status: 201,
        body: '{"id":"kept"}',
        headers: '{"Location":"/things/kept"}',
      },
    );
    expect(records.complete).not.toHaveBeenCalled();
  });

  it('a record that expires between the lease and the replay is tried again, then 409', async () => {
    records.lease.mockResolvedValue(false);
    records.findLive.mockResolvedValue(undefined);
    await expect(
      service.run(request, 1000, () => Promise.resolve({ id: 'x' })),
    ).rejects.toBeInstanceOf(IdempotencyKeyInUseError);
    expect(records.lease).toHaveBeenCalledTimes(3);
  });
});
