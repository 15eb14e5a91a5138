import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { RunAdvancer } from './run-advancer';
import { runsConfig, type RunsConfig } from './runs.config';
import { RunsRepository } from './runs.repository';

/** Runs one sweep advances at most: a bounded read, a bounded pass. */
const SWEEP_BATCH = 100;

/**
 * Every RUNS_SWEEP_MS, in every process, advances the runs still open or
 * with tasks unfinished: what a settle heard by no advance left behind
 * (its worker killed between settling and advancing, or the settle heard
 * by another replica than the selection's) only waits for the next
 * sweep. Advancing is idempotent, so replicas sweeping the same runs
 * move each once.
 */
@Injectable()
export class RunSweeper
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger(RunSweeper.name);
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly runs: RunsRepository,
    private readonly advancer: RunAdvancer,
    @Inject(runsConfig.KEY) private readonly config: RunsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep().finally(() => {
        this.sweeping = undefined;
      });
    }, this.config.sweepMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
    await this.advancer.idle();
  }

  /** One sweep: each run of the batch advanced in turn. */
  async sweep(): Promise<void> {
    try {
      for (const id of await this.runs.sweepable(SWEEP_BATCH)) {
        await this.advancer.advance(id);
      }
    } catch (error) {
      this.logger.error(
        `The sweep of runs failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
