import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsService } from '../metrics/metrics.service';

/** Task attempts of this process, for /metrics. */
@Injectable()
export class TaskMetrics {
  private readonly attempts: Counter<'type' | 'outcome'>;
  private readonly duration: Histogram<'type' | 'outcome'>;
  private running = 0;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.attempts = new Counter({
      name: 'task_attempts_total',
      help: 'Task attempts run by this process, by type and outcome: succeeded, failed, retry (failed, will run again), cancelled (or deleted), given_back (the process stopped)',
      labelNames: ['type', 'outcome'] as const,
      registers,
    });
    this.duration = new Histogram({
      name: 'task_attempt_duration_seconds',
      help: 'Duration of task attempts run by this process, by type and outcome',
      labelNames: ['type', 'outcome'] as const,
      buckets: [0.05, 0.1, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
      registers,
    });
    const runningNow = () => this.running;
    new Gauge({
      name: 'tasks_running',
      help: 'Tasks this process is running now (TASK_CONCURRENCY bounds it)',
      registers,
      collect() {
        this.set(runningNow());
      },
    });
  }

  /** Times one attempt; `end` records how it ended. */
  start(type: string): { end(outcome: string): void } {
    this.running++;
    const stop = this.duration.startTimer({ type });
    let ended = false;
    return {
      end: (outcome) => {
        if (ended) return;
        ended = true;
        this.running--;
        stop({ outcome });
        this.attempts.inc({ type, outcome });
      },
    };
  }
}
