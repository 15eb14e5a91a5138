import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * The Prometheus registry of this app. One per app, not prom-client's global
 * one, so several apps in one process (the e2e suites) never collide.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  /** Every HTTP request, by method, route template and status. */
  readonly httpRequestDuration = requestDuration([this.registry]);

  /**
   * The same histogram in no registry: the start-up warm-up's requests
   * observe it (compiling that code before readiness), and no scrape sees it.
   */
  readonly warmUpRequestDuration = requestDuration([]);

  constructor() {
    // Process metrics: CPU, memory, event-loop lag, handles, GC.
    collectDefaultMetrics({ register: this.registry });
  }
}

function requestDuration(
  registers: Registry[],
): Histogram<'method' | 'route' | 'status_code'> {
  return new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests, by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  });
}
