import {
  openScratchSqlite,
  type ScratchSqlite,
} from '../../test/support/scratch-sqlite';
import {
  UsageLedgerRepository,
  type Reservation,
  type ReserveOutcome,
} from './usage-ledger.repository';

const DAY = '2026-03-01';
const MONTH = '2026-03';

const reservation = (
  costMicros: number,
  scope: Partial<Reservation['scope']> = {},
  when: { day?: string; month?: string } = {},
): Reservation => ({
  scope: { userKey: 'user:ann', projectId: 'p1', taskId: null, ...scope },
  kind: 'image',
  model: 'image-model',
  units: { images: 1, inputTokens: 0, outputTokens: 0 },
  costMicros,
  day: when.day ?? DAY,
  month: when.month ?? MONTH,
  at: new Date('2026-03-01T12:00:00.000Z'),
});

const idOf = (outcome: ReserveOutcome): number => {
  if (!outcome.reserved) throw new Error(`refused: ${outcome.over}`);
  return outcome.id;
};

describe('UsageLedgerRepository (SQLite)', () => {
  let scratch: ScratchSqlite;
  let ledger: UsageLedgerRepository;

  beforeAll(async () => {
    scratch = await openScratchSqlite();
    ledger = new UsageLedgerRepository(scratch.db);
  });

  afterAll(() => scratch.close());

  beforeEach(() =>
    scratch.db.write((manager) => manager.query('DELETE FROM "usage_ledger"')),
  );

  it("reserves a call that fits the user's day, and refuses one that would pass it", async () => {
    const limits = { userDayMicros: 1000 };
    await expect(ledger.reserve(reservation(600), limits)).resolves.toEqual({
      reserved: true,
      id: expect.any(Number) as number,
    });
    await expect(ledger.reserve(reservation(400), limits)).resolves.toEqual(
      expect.objectContaining({ reserved: true }),
    );
    await expect(ledger.reserve(reservation(1), limits)).resolves.toEqual({
      reserved: false,
      over: 'user_day',
    });
  });

  it("counts only the user's own calls of that day", async () => {
    const limits = { userDayMicros: 1000 };
    idOf(await ledger.reserve(reservation(900, { userKey: 'user:bob' }), {}));
    idOf(await ledger.reserve(reservation(900), {}));
    await expect(
      ledger.reserve(reservation(200, {}, { day: '2026-03-02' }), limits),
    ).resolves.toEqual(expect.objectContaining({ reserved: true }));
    await expect(ledger.reserve(reservation(200), limits)).resolves.toEqual({
      reserved: false,
      over: 'user_day',
    });
  });

  it("refuses a call over the project's month, across its users; a call of no project has no such budget", async () => {
    const limits = { projectMonthMicros: 1000 };
    idOf(await ledger.reserve(reservation(700), limits));
    await expect(
      ledger.reserve(reservation(400, { userKey: 'user:bob' }), limits),
    ).resolves.toEqual({ reserved: false, over: 'project_month' });
    await expect(
      ledger.reserve(reservation(400, { projectId: 'p2' }), limits),
    ).resolves.toEqual(expect.objectContaining({ reserved: true }));
    await expect(
      ledger.reserve(reservation(5000, { projectId: null }), limits),
    ).resolves.toEqual(expect.objectContaining({ reserved: true }));
  });

  it('a released reservation no longer counts; a settled one counts at its real cost', async () => {
    const limits = { userDayMicros: 1000 };
    const released = idOf(await ledger.reserve(reservation(900), limits));
    await ledger.release(released);
    const settled = idOf(await ledger.reserve(reservation(900), limits));
    await ledger.settle(
      settled,
      'image-model-b',
      { images: 1, inputTokens: 0, outputTokens: 0 },
      300,
    );
    await expect(ledger.reserve(reservation(700), limits)).resolves.toEqual(
      expect.objectContaining({ reserved: true }),
    );
    await expect(ledger.reserve(reservation(1), limits)).resolves.toEqual({
      reserved: false,
      over: 'user_day',
    });
  });

  it('settles or releases only a reservation still open', async () => {
    const id = idOf(await ledger.reserve(reservation(500), {}));
    await ledger.settle(
      id,
      'image-model',
      { images: 1, inputTokens: 0, outputTokens: 0 },
      200,
    );
    // Too late: the call was settled.
    await ledger.release(id);
    await ledger.settle(
      id,
      'image-model',
      { images: 1, inputTokens: 0, outputTokens: 0 },
      999,
    );
    await expect(ledger.spendOf('user:ann', DAY, MONTH)).resolves.toEqual([
      { projectId: 'p1', todayMicros: 200, monthMicros: 200 },
    ]);
  });

  it("a user's spend is by project, today's within the month's, without released calls or other users'", async () => {
    idOf(await ledger.reserve(reservation(100), {}));
    idOf(await ledger.reserve(reservation(20, {}, { day: '2026-03-02' }), {}));
    idOf(await ledger.reserve(reservation(5, { projectId: null }), {}));
    idOf(
      await ledger.reserve(
        reservation(1000, {}, { day: '2026-02-28', month: '2026-02' }),
        {},
      ),
    );
    idOf(await ledger.reserve(reservation(7, { userKey: 'user:bob' }), {}));
    await ledger.release(idOf(await ledger.reserve(reservation(300), {})));
    const spend = await ledger.spendOf('user:ann', DAY, MONTH);
    expect(spend).toHaveLength(2);
    expect(spend).toEqual(
      expect.arrayContaining([
        { projectId: 'p1', todayMicros: 100, monthMicros: 120 },
        { projectId: null, todayMicros: 5, monthMicros: 5 },
      ]),
    );
  });
});
