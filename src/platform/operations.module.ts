import {
  Inject,
  Module,
  NestModule,
  OnApplicationShutdown,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application } from 'express';
import type { ConfigType } from '@nestjs/config';
import { discardingLogger, jsonLogger } from '../logging/json-logger';
import { loggingConfig } from '../logging/logging.config';
import { flushLogs } from '../logging/log-destination';
import { MetricsService } from '../metrics/metrics.service';
import { operationsMiddleware } from './operations.middleware';
import { securityHeaders } from './security-headers';

/**
 * Mounts the operations middleware (request id, security headers, request
 * log line, request metric) straight on Express, before any other layer, so
 * an app built from AppModule alone gets it too. Not through Nest's
 * MiddlewareConsumer: that wraps each middleware in a path match per
 * request, for a layer that applies to every path anyway.
 */
@Module({})
export class OperationsModule implements NestModule, OnApplicationShutdown {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: MetricsService,
    @Inject(loggingConfig.KEY)
    private readonly config: ConfigType<typeof loggingConfig>,
  ) {}

  configure(): void {
    this.adapterHost.httpAdapter.getInstance<Application>().use(
      operationsMiddleware({
        requestLog: jsonLogger(this.config),
        duration: this.metrics.httpRequestDuration,
        headers: securityHeaders(),
        warmUp: {
          requestLog: discardingLogger(this.config),
          duration: this.metrics.warmUpRequestDuration,
        },
      }),
    );
  }

  /**
   * After the last request: log lines are written asynchronously, and the
   * process exits right after shutdown, so wait until they are out.
   */
  onApplicationShutdown(): Promise<void> {
    return flushLogs();
  }
}
