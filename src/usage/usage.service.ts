import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { BudgetExceededError } from './budget-exceeded.error';
import {
  estimateCallCostMicros,
  type CallUnits,
  type PricedCall,
} from './price-table';
import {
  UsageLedgerRepository,
  type UsageScope,
} from './usage-ledger.repository';
import { UsageMetrics } from './usage-metrics';
import { usageConfig } from './usage.config';

export type { UsageScope } from './usage-ledger.repository';

const MICROS_PER_USD = 1_000_000;

/** What a paid call turned out to use, read from its answer. */
export interface CallOutcome {
  model: string;
  units: CallUnits;
}

/** GET /api/usage's answer. */
export interface UsageReport {
  day: string;
  month: string;
  todayUsd: number;
  monthUsd: number;
  budgets: { perUserDayUsd: number | null; perProjectUsd: number | null };
  projects: Array<{
    projectId: string | null;
    todayUsd: number;
    monthUsd: number;
  }>;
}

/**
 * Every paid model call goes through `metered`: its estimated cost is
 * reserved in the ledger (refused with 429 budget_exceeded, before
 * anything is sent, when a budget would be exceeded), the call runs, and
 * the reservation is settled with what the call used, or released when it
 * failed. With no budget set, the ledger is still written: the spend is
 * known before the bill comes.
 */
@Injectable()
export class UsageService {
  private readonly logger = new Logger(UsageService.name);

  constructor(
    private readonly ledger: UsageLedgerRepository,
    private readonly metrics: UsageMetrics,
    @Inject(usageConfig.KEY)
    private readonly config: ConfigType<typeof usageConfig>,
  ) {}

  /** A call's cost in USD from the price table (the operator's entries first). */
  estimate(call: PricedCall): number {
    return estimateCallCostMicros(call, this.config.prices) / MICROS_PER_USD;
  }

  async metered<T>(
    scope: UsageScope,
    call: PricedCall,
    work: () => Promise<T>,
    outcome: (result: T) => CallOutcome,
  ): Promise<T> {
    const id = await this.reserve(scope, call);
    let result: T;
    try {
      result = await work();
    } catch (error) {
      await this.release(id, call.kind);
      throw error;
    }
    await this.settle(id, call, outcome(result));
    return result;
  }

  /** The ledger row of the reservation; throws BudgetExceededError. */
  private async reserve(scope: UsageScope, call: PricedCall): Promise<number> {
    const now = new Date();
    const { day, month } = periodsOf(now);
    const outcome = await this.ledger.reserve(
      {
        scope,
        kind: call.kind,
        model: call.model,
        units: call.units,
        costMicros: estimateCallCostMicros(call, this.config.prices),
        day,
        month,
        at: now,
      },
      {
        userDayMicros: micros(this.config.limitPerUserDayUsd),
        projectMonthMicros: micros(this.config.limitPerProjectUsd),
      },
    );
    if (outcome.reserved) return outcome.id;
    this.metrics.refused.inc({ budget: outcome.over });
    throw outcome.over === 'user_day'
      ? new BudgetExceededError(
          `This call would exceed the daily spend budget of ${this.config.limitPerUserDayUsd} USD; it starts again at 00:00 UTC`,
          secondsUntil(nextDay(now), now),
        )
      : new BudgetExceededError(
          `This call would exceed the project's monthly spend budget of ${this.config.limitPerProjectUsd} USD; it starts again on the 1st, 00:00 UTC`,
          secondsUntil(nextMonth(now), now),
        );
  }

  private async settle(
    id: number,
    call: PricedCall,
    outcome: CallOutcome,
  ): Promise<void> {
    const priced = { ...call, model: outcome.model, units: outcome.units };
    const cost = estimateCallCostMicros(priced, this.config.prices);
    try {
      await this.ledger.settle(id, outcome.model, outcome.units, cost);
    } catch (error) {
      // The call succeeded and its answer is the client's: a ledger that
      // cannot be written now keeps the reservation (the estimate) instead.
      this.logger.warn(`Usage ${id} not settled: ${(error as Error).message}`);
    }
    this.metrics.calls.inc({ kind: call.kind, outcome: 'settled' });
    this.metrics.costUsd.inc(
      { kind: call.kind, model: outcome.model },
      cost / MICROS_PER_USD,
    );
  }

  private async release(id: number, kind: PricedCall['kind']): Promise<void> {
    try {
      await this.ledger.release(id);
    } catch (error) {
      this.logger.warn(`Usage ${id} not released: ${(error as Error).message}`);
    }
    this.metrics.calls.inc({ kind, outcome: 'released' });
  }

  /** The caller's spend today and this month (UTC), by project, with the budgets. */
  async report(userKey: string): Promise<UsageReport> {
    const { day, month } = periodsOf(new Date());
    const projects = await this.ledger.spendOf(userKey, day, month);
    const usd = (value: number) => value / MICROS_PER_USD;
    return {
      day,
      month,
      todayUsd: usd(projects.reduce((sum, p) => sum + p.todayMicros, 0)),
      monthUsd: usd(projects.reduce((sum, p) => sum + p.monthMicros, 0)),
      budgets: {
        perUserDayUsd: this.config.limitPerUserDayUsd ?? null,
        perProjectUsd: this.config.limitPerProjectUsd ?? null,
      },
      projects: projects.map((p) => ({
        projectId: p.projectId,
        todayUsd: usd(p.todayMicros),
        monthUsd: usd(p.monthMicros),
      })),
    };
  }
}

const micros = (usd: number | undefined): number | undefined =>
  usd === undefined ? undefined : Math.round(usd * MICROS_PER_USD);

function periodsOf(at: Date): { day: string; month: string } {
  const day = at.toISOString().slice(0, 10);
  return { day, month: day.slice(0, 7) };
}

const nextDay = (at: Date): Date =>
  new Date(
    Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1),
  );

const nextMonth = (at: Date): Date =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

const secondsUntil = (then: Date, now: Date): number =>
  Math.max(1, Math.ceil((then.getTime() - now.getTime()) / 1000));
