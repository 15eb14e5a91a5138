import { Module, NestModule } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application } from 'express';
import { pipeliningMiddleware } from './connection-turns';

/**
 * Mounts the one-request-at-a-time layer (connection-turns.ts) straight on
 * Express, right after the operations middleware, so an app built from
 * AppModule alone bounds a pipelining client exactly as production does,
 * and a request waiting for its turn still gets its id, its log line and
 * its metric.
 */
@Module({})
export class PipeliningModule implements NestModule {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  configure(): void {
    this.adapterHost.httpAdapter
      .getInstance<Application>()
      .use(pipeliningMiddleware());
  }
}
