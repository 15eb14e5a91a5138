import { BudgetExceededError } from './budget-exceeded.error';
import type { PricedCall } from './price-table';
import type {
  BudgetLimits,
  ProjectSpend,
  Reservation,
  ReserveOutcome,
  UsageLedgerRepository,
} from './usage-ledger.repository';
import type { UsageMetrics } from './usage-metrics';
import { UsageService } from './usage.service';
import type { UsageConfig } from './usage.config';

/** The ledger's rules, in memory: reservations and settlements count, releases do not. */
class LedgerInMemory {
  readonly rows: Array<
    Reservation & { id: number; state: 'reserved' | 'settled' | 'released' }
  > = [];

  reserve(row: Reservation, limits: BudgetLimits): Promise<ReserveOutcome> {
    const counted = this.rows.filter((r) => r.state !== 'released');
    const userDay = counted
      .filter((r) => r.scope.userKey === row.scope.userKey && r.day === row.day)
      .reduce((sum, r) => sum + r.costMicros, 0);
    if (
      limits.userDayMicros !== undefined &&
      userDay + row.costMicros > limits.userDayMicros
    ) {
      return Promise.resolve({ reserved: false, over: 'user_day' });
    }
    const id = this.rows.length + 1;
    this.rows.push({ ...row, id, state: 'reserved' });
    return Promise.resolve({ reserved: true, id });
  }

  settle(id: number, model: string, _units: unknown, costMicros: number) {
    const row = this.rows[id - 1];
    Object.assign(row, { state: 'settled', model, costMicros });
    return Promise.resolve();
  }

  release(id: number) {
    this.rows[id - 1].state = 'released';
    return Promise.resolve();
  }

  spendOf(): Promise<ProjectSpend[]> {
    return Promise.resolve([]);
  }
}

const counter = () => ({ inc: jest.fn() });

function serviceWith(config: Partial<UsageConfig>) {
  const ledger = new LedgerInMemory();
  const metrics = { calls: counter(), costUsd: counter(), refused: counter() };
  const service = new UsageService(
    ledger as unknown as UsageLedgerRepository,
    metrics as unknown as UsageMetrics,
    {
      limitPerUserDayUsd: undefined,
      limitPerProjectUsd: undefined,
      prices: {},
      ...config,
    },
  );
  return { service, ledger, metrics };
}

const IMAGE: PricedCall = {
  kind: 'image',
  model: 'gpt-image-2.5-sunburst',
  units: { images: 1, inputTokens: 0, outputTokens: 0 },
  size: '1024x1024',
  quality: 'high',
};
const SCOPE = { userKey: 'user:ann', projectId: 'p1', taskId: null };
const answered = () => ({
  model: IMAGE.model,
  units: { images: 1, inputTokens: 0, outputTokens: 0 },
});

describe('UsageService', () => {
  it('reserves before the call and settles it with what the call used', async () => {
    const { service, ledger } = serviceWith({});
    const work = jest.fn(() => {
      expect(ledger.rows.map((row) => row.state)).toEqual(['reserved']);
      return Promise.resolve('image');
    });
    await expect(service.metered(SCOPE, IMAGE, work, answered)).resolves.toBe(
      'image',
    );
    expect(ledger.rows.map((row) => row.state)).toEqual(['settled']);
    expect(ledger.rows[0].costMicros).toBeGreaterThan(0);
  });

  it('releases the reservation of a call that failed, and passes its failure on', async () => {
    const { service, ledger } = serviceWith({});
    const failing = () => Promise.reject(new Error('upstream 500'));
    await expect(
      service.metered(SCOPE, IMAGE, failing, answered),
    ).rejects.toThrow('upstream 500');
    expect(ledger.rows.map((row) => row.state)).toEqual(['released']);
  });

  it('refuses a call over the daily budget with 429 budget_exceeded and Retry-After until 00:00 UTC, without running it', async () => {
    const { service, metrics } = serviceWith({ limitPerUserDayUsd: 0.000001 });
    const work = jest.fn(() => Promise.resolve('image'));
    const refused = await service
      .metered(SCOPE, IMAGE, work, answered)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BudgetExceededError);
    const error = refused as BudgetExceededError;
    expect(error.status).toBe(429);
    expect(error.code).toBe('budget_exceeded');
    const now = new Date();
    const midnight = Date.UTC(
      now.getUTCFullYear(),
      now.getUTCMonth(),
      now.getUTCDate() + 1,
    );
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(
      Math.ceil((midnight - now.getTime()) / 1000) + 1,
    );
    expect(work).not.toHaveBeenCalled();
    expect(metrics.refused.inc).toHaveBeenCalledWith({ budget: 'user_day' });
  });

  it('lets a released reservation be spent again: a failure does not use up the budget', async () => {
    const { service } = serviceWith({});
    const oneImage = service.estimate(IMAGE);
    const limited = serviceWith({ limitPerUserDayUsd: oneImage });
    const image = (call: () => Promise<string>) =>
      limited.service.metered(SCOPE, IMAGE, call, answered);
    await expect(
      image(() => Promise.reject(new Error('timeout'))),
    ).rejects.toThrow('timeout');
    await expect(image(() => Promise.resolve('image'))).resolves.toBe('image');
    await expect(image(() => Promise.resolve('image'))).rejects.toBeInstanceOf(
      BudgetExceededError,
    );
  });
});
