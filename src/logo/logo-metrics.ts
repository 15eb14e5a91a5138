import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsService } from '../metrics/metrics.service';
import { LogoQueue } from './logo-queue';

/** How one upstream image call ended. */
export type ImageApiCallOutcome =
  /** A 2xx with an image URL, or a valid base64 image. */
  | 'success'
  /** A non-2xx answer (429 and 5xx included). */
  | 'error_response'
  /** A 2xx without an image (URL or valid base64), or over a size limit. */
  | 'invalid_response'
  | 'timeout'
  | 'unreachable'
  /** Cut because the caller left or the request's deadline passed. */
  | 'cancelled';

/** Upstream image calls and the logo line, for /metrics. */
@Injectable()
export class LogoMetrics {
  private readonly calls: Counter<'outcome'>;
  private readonly callDuration: Histogram<'outcome'>;
  private readonly tokens: Counter<'kind'>;

  constructor(metrics: MetricsService, queue: LogoQueue) {
    const registers = [metrics.registry];
    this.calls = new Counter({
      name: 'image_api_calls_total',
      help: 'Upstream image API calls (each retry counts), by outcome',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.callDuration = new Histogram({
      name: 'image_api_call_duration_seconds',
      help: 'Duration of upstream image API calls, by outcome',
      labelNames: ['outcome'] as const,
      // The image API takes 10-20 s and sometimes 45 s or more.
      buckets: [0.1, 0.5, 1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120],
      registers,
    });
    this.tokens = new Counter({
      name: 'image_api_tokens_total',
      help: 'Tokens the image API reported using (its `usage`), by kind: input or output',
      labelNames: ['kind'] as const,
      registers,
    });
    new Gauge({
      name: 'logo_requests_in_flight',
      help: 'Logo requests holding an upstream call slot (IMAGE_API_CONCURRENCY bounds it)',
      registers,
      collect() {
        this.set(queue.inFlight);
      },
    });
    new Gauge({
      name: 'logo_requests_queued',
      help: 'Logo requests waiting for a call slot (IMAGE_API_QUEUE_LIMIT bounds it)',
      registers,
      collect() {
        this.set(queue.waiting);
      },
    });
  }

  recordUsage(usage: { inputTokens: number; outputTokens: number }): void {
    this.tokens.inc({ kind: 'input' }, usage.inputTokens);
    this.tokens.inc({ kind: 'output' }, usage.outputTokens);
  }

  recordCall(outcome: ImageApiCallOutcome, seconds: number): void {
    this.calls.inc({ outcome });
    this.callDuration.observe({ outcome }, seconds);
  }
}
