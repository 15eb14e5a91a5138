import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationShutdown,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import type { ConfigType } from '@nestjs/config';
import { processConfig } from '../process/process.config';

/**
 * The drain after SIGTERM. Nest's shutdown (enableShutdownHooks in main.ts)
 * runs `beforeApplicationShutdown`, then closes the HTTP server — which stops
 * accepting connections and waits for the requests in flight — and then
 * `onApplicationShutdown`, where TypeORM closes the database.
 *
 * Here: readiness turns 503 at once (Kubernetes stops routing new requests
 * to the pod), responses sent while draining carry `Connection: close` (a
 * keep-alive client opens its next connection elsewhere), and after
 * SHUTDOWN_TIMEOUT_MS whatever is still open is closed, so the server close
 * resolves and the process exits in time.
 */
@Injectable()
export class ShutdownState
  implements BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('Shutdown');
  private readonly timeoutMs: number;
  private isDraining = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(processConfig.KEY) config: ConfigType<typeof processConfig>,
  ) {
    this.timeoutMs = config.shutdownTimeoutMs;
  }

  get draining(): boolean {
    return this.isDraining;
  }

  beforeApplicationShutdown(signal?: string): void {
    this.isDraining = true;
    this.logger.log(
      `Shutting down${signal ? ` on ${signal}` : ''}: not ready, finishing requests in flight (at most ${this.timeoutMs} ms)`,
    );
    this.timer = setTimeout(
      () => this.closeRemainingConnections(),
      this.timeoutMs,
    );
    // The timer alone must never keep the process alive.
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearTimeout(this.timer);
  }

  private closeRemainingConnections(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as
      Server | undefined;
    if (!server || typeof server.closeAllConnections !== 'function') return;
    this.logger.warn(
      `SHUTDOWN_TIMEOUT_MS (${this.timeoutMs} ms) passed: closing the connections still open`,
    );
    // Their callers see the connection close; a logo request's upstream call
    // is aborted as for any caller that disconnects.
    server.closeAllConnections();
  }
}
