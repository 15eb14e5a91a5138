import { Counter, Gauge } from 'prom-client';
import type { MetricsService } from '../../metrics/metrics.service';

/** Where the rate limits are counted, for /metrics (with REDIS_URL only). */
export class RateLimitStorageMetrics {
  private readonly fallback: Gauge;
  private readonly switches: Counter<'to'>;
  private readonly failures: Counter;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.fallback = new Gauge({
      name: 'rate_limit_storage_fallback',
      help: "1 while the rate limits are counted in this instance's memory because Redis does not answer, 0 while they are counted in Redis",
      registers,
    });
    this.switches = new Counter({
      name: 'rate_limit_storage_switches_total',
      help: 'Switches of the rate-limit counts between Redis and memory, by the store switched to',
      labelNames: ['to'] as const,
      registers,
    });
    this.failures = new Counter({
      name: 'rate_limit_redis_failures_total',
      help: 'Rate-limit checks of a request that waited for Redis and got no answer within REDIS_COMMAND_TIMEOUT_MS (then counted in memory)',
      registers,
    });
  }

  setFallback(inMemory: boolean): void {
    this.fallback.set(inMemory ? 1 : 0);
  }

  switched(to: 'memory' | 'redis'): void {
    this.switches.inc({ to });
    this.setFallback(to === 'memory');
  }

  redisFailed(): void {
    this.failures.inc();
  }
}
