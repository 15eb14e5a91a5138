import {
  openScratchSqlite,
  type ScratchSqlite,
} from '../../test/support/scratch-sqlite';
import { IdempotencyRepository, type Lease } from './idempotency.repository';

const NOW = 1_780_000_000_000;
const ANSWER = { status: 201, body: '{"id":"1"}', headers: '{}' };

const leaseOf = (id: string, overrides: Partial<Lease> = {}): Lease => ({
  id,
  fingerprint: 'body-1',
  lockedUntil: NOW + 30_000,
  expiresAt: NOW + 86_400_000,
  ...overrides,
});

describe('IdempotencyRepository (SQLite)', () => {
  let scratch: ScratchSqlite;
  let records: IdempotencyRepository;

  beforeAll(async () => {
    scratch = await openScratchSqlite();
    records = new IdempotencyRepository(scratch.db);
  });

  afterAll(() => scratch.close());

  beforeEach(() =>
    scratch.db.write((manager) =>
      manager.query('DELETE FROM "idempotency_keys"'),
    ),
  );

  it('one caller holds a new key; a second is refused while the lease lasts', async () => {
    await expect(records.lease(leaseOf('k'), NOW)).resolves.toBe(true);
    await expect(
      records.lease(leaseOf('k', { fingerprint: 'body-2' }), NOW + 1),
    ).resolves.toBe(false);
    await expect(records.findLive('k', NOW + 1)).resolves.toEqual({
      fingerprint: 'body-1',
      status: null,
      body: null,
      headers: null,
      lockedUntil: NOW + 30_000,
    });
  });

  it('a key whose holder died (lease ran out, no answer) is taken over by the next caller', async () => {
    await records.lease(leaseOf('k'), NOW);
    const later = NOW + 30_000;
    await expect(
      records.lease(
        leaseOf('k', { fingerprint: 'body-2', lockedUntil: later + 30_000 }),
        later,
      ),
    ).resolves.toBe(true);
    await expect(records.findLive('k', later)).resolves.toMatchObject({
      fingerprint: 'body-2',
      lockedUntil: later + 30_000,
    });
  });

  it('a key with a stored answer is never taken over, whatever its lease said', async () => {
    await records.lease(leaseOf('k'), NOW);
    await records.complete('k', ANSWER);
    await expect(records.lease(leaseOf('k'), NOW + 60_000)).resolves.toBe(
      false,
    );
    await expect(records.findLive('k', NOW + 60_000)).resolves.toEqual({
      fingerprint: 'body-1',
      ...ANSWER,
      lockedUntil: null,
    });
  });

  it('an expired key is gone for readers, and can be used anew', async () => {
    await records.lease(leaseOf('k', { expiresAt: NOW + 1000 }), NOW);
    await records.complete('k', ANSWER);
    await expect(records.findLive('k', NOW + 1000)).resolves.toBeNull();
    await expect(
      records.lease(leaseOf('k', { fingerprint: 'body-2' }), NOW + 1000),
    ).resolves.toBe(true);
    await expect(records.findLive('k', NOW + 1000)).resolves.toMatchObject({
      fingerprint: 'body-2',
      status: null,
    });
  });

  it('release frees a key still in progress, never one with its answer', async () => {
    await records.lease(leaseOf('open'), NOW);
    await records.release('open');
    await expect(records.findLive('open', NOW)).resolves.toBeNull();

    await records.lease(leaseOf('done'), NOW);
    await records.complete('done', ANSWER);
    await records.release('done');
    await expect(records.findLive('done', NOW)).resolves.toMatchObject(ANSWER);
  });

  it("stores an answer with the work's transaction, or not at all when it rolls back", async () => {
    const record = {
      id: 'k',
      fingerprint: 'body-1',
      expiresAt: NOW + 86_400_000,
      answer: ANSWER,
    };
    await expect(
      scratch.db.transaction(async (transaction) => {
        await records.insertInTransaction(transaction, record, NOW);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    await expect(records.findLive('k', NOW)).resolves.toBeNull();

    await expect(
      scratch.db.transaction((transaction) =>
        records.insertInTransaction(transaction, record, NOW),
      ),
    ).resolves.toBe(true);
    await expect(
      scratch.db.transaction((transaction) =>
        records.insertInTransaction(transaction, record, NOW),
      ),
    ).resolves.toBe(false);
    await expect(records.findLive('k', NOW)).resolves.toMatchObject(ANSWER);
  });

  it('purges expired keys a batch at a time, and only those', async () => {
    for (const id of ['a', 'b', 'c']) {
      await records.lease(leaseOf(id, { expiresAt: NOW + 1000 }), NOW);
    }
    await records.lease(leaseOf('live'), NOW);
    await expect(records.purgeExpired(NOW + 1000, 2)).resolves.toBe(2);
    await expect(records.purgeExpired(NOW + 1000, 2)).resolves.toBe(1);
    await expect(records.purgeExpired(NOW + 1000, 2)).resolves.toBe(0);
    await expect(records.findLive('live', NOW + 1000)).resolves.not.toBeNull();
  });
});
