import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application } from 'express';

/**
 * Express settings that shape every response, applied from a module so an
 * app built from AppModule alone gets them too.
 */
@Module({})
export class ExpressSettingsModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const app = this.adapterHost.httpAdapter.getInstance<Application>();
    // No ETag: hashing every body cost measurable CPU per request, and no
    // client of this API sends conditional requests (bodies change with
    // every update anyway).
    app.set('etag', false);
    // Says nothing a client needs, and tells an attacker the framework.
    app.disable('x-powered-by');
  }
}
