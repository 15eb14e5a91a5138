import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { ChangeEvent } from '../change-log/change-event';
import { MetricsService } from '../metrics/metrics.service';
import type { CloseReason } from './live-stream';

/** Live-change streams of this process, for /metrics. */
@Injectable()
export class EventMetrics {
  private open = 0;
  private readonly sent: Counter;
  private readonly replayed: Counter;
  private readonly resets: Counter;
  private readonly cut: Counter<'reason'>;
  private readonly lag: Histogram;
  private readonly pacedEvents: Counter;
  private readonly pacedSeconds: Counter;
  private readonly unscopedRefused: Counter<'by'>;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    const openNow = () => this.open;
    new Gauge({
      name: 'event_streams_open',
      help: 'Live-change streams open on this instance',
      registers,
      collect() {
        this.set(openNow());
      },
    });
    this.sent = new Counter({
      name: 'event_stream_events_sent_total',
      help: 'Events written to live-change streams (replayed ones included)',
      registers,
    });
    this.replayed = new Counter({
      name: 'event_stream_replays_total',
      help: 'Streams that resumed from a Last-Event-ID and replayed what they missed',
      registers,
    });
    this.resets = new Counter({
      name: 'event_stream_resets_total',
      help: 'Streams told to refetch (reset): their Last-Event-ID was purged or unknown',
      registers,
    });
    this.cut = new Counter({
      name: 'event_streams_closed_total',
      help: 'Streams this instance closed, by reason: slow_reader (unsent bytes past EVENTS_BUFFER_LIMIT_BYTES), expired (the token or ticket), shutdown, deleted (the project)',
      labelNames: ['reason'] as const,
      registers,
    });
    this.pacedEvents = new Counter({
      name: 'event_stream_replay_paced_events_total',
      help: "Replayed events held back to the client's EVENTS_REPLAY_RATE before being sent",
      registers,
    });
    this.pacedSeconds = new Counter({
      name: 'event_stream_replay_paced_seconds_total',
      help: "Seconds replays waited for their client's EVENTS_REPLAY_RATE",
      registers,
    });
    this.unscopedRefused = new Counter({
      name: 'event_streams_unscoped_refused_total',
      help: 'Unscoped streams without a proven caller refused, by the limit they met: address or network (/24, /64)',
      labelNames: ['by'] as const,
      registers,
    });
    this.lag = new Histogram({
      name: 'event_delivery_lag_seconds',
      help: "From an event's commit (its `at`) to this instance reading it for its streams",
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
      registers,
    });
  }

  opened(): void {
    this.open++;
  }

  closed(): void {
    this.open--;
  }

  wrote(events: number): void {
    this.sent.inc(events);
  }

  replay(): void {
    this.replayed.inc();
  }

  paced(events: number, waitMs: number): void {
    this.pacedEvents.inc(events);
    this.pacedSeconds.inc(waitMs / 1000);
  }

  refusedUnscoped(by: string): void {
    this.unscopedRefused.inc({ by });
  }

  reset(): void {
    this.resets.inc();
  }

  closedBy(reason: CloseReason): void {
    this.cut.inc({ reason });
  }

  delivered(event: ChangeEvent): void {
    this.lag.observe(Math.max(0, Date.now() - Date.parse(event.at)) / 1000);
  }
}
