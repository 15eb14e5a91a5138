import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsService } from '../metrics/metrics.service';

/** Paid calls, their cost and refusals, for /metrics. */
@Injectable()
export class UsageMetrics {
  readonly calls: Counter<'kind' | 'outcome'>;
  readonly costUsd: Counter<'kind' | 'model'>;
  readonly refused: Counter<'budget'>;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.calls = new Counter({
      name: 'usage_paid_calls_total',
      help: 'Paid model calls, by kind (image, text) and outcome: settled (done, its cost kept) or released (failed, its reservation given back)',
      labelNames: ['kind', 'outcome'] as const,
      registers,
    });
    this.costUsd = new Counter({
      name: 'usage_cost_usd_total',
      help: 'Estimated cost (price table) of settled paid model calls, in USD, by kind and model',
      labelNames: ['kind', 'model'] as const,
      registers,
    });
    this.refused = new Counter({
      name: 'usage_budget_refusals_total',
      help: 'Paid calls refused before anything was sent, by the budget they would exceed: user_day or project_month',
      labelNames: ['budget'] as const,
      registers,
    });
  }
}
