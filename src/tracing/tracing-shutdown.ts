import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { processConfig } from '../process/process.config';
import { runningTracing } from './running-tracing';

/** The least time the last spans get, even after a drain that used it all. */
const MIN_FLUSH_MS = 1000;

/**
 * Exports the spans still buffered when the app closes (SIGTERM), after the
 * requests in flight have ended, so their spans are complete. It gets what
 * is left of SHUTDOWN_TIMEOUT_MS since the signal (at least 1 s, which the
 * 3 s margin of main.ts's last resort covers); spans that cannot be sent
 * by then are dropped rather than holding the exit.
 */
@Injectable()
export class TracingShutdown
  implements BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly timeoutMs: number;
  private signalledAt = Date.now();

  constructor(
    @Inject(processConfig.KEY) config: ConfigType<typeof processConfig>,
  ) {
    this.timeoutMs = config.shutdownTimeoutMs;
  }

  beforeApplicationShutdown(): void {
    this.signalledAt = Date.now();
  }

  async onApplicationShutdown(): Promise<void> {
    const running = runningTracing();
    if (running === undefined) return;
    const left = this.timeoutMs - (Date.now() - this.signalledAt);
    await running.shutdown(Math.max(MIN_FLUSH_MS, left));
  }
}
