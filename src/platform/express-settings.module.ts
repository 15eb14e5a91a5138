import { Module, NestModule, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application } from 'express';
import { undecodablePathMiddleware } from './undecodable-path.middleware';

/**
 * Express settings that shape every response, applied from a module so an
 * app built from AppModule alone gets them too.
 */
@Module({})
export class ExpressSettingsModule implements NestModule, OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  configure(): void {
    // Straight on the Express app, not through the consumer: a consumer
    // middleware is mounted on a path pattern, and matching that pattern
    // decodes the path, which is the very failure this middleware prevents.
    // configure() runs before any consumer middleware or route is mounted,
    // so this layer comes first.
    this.adapterHost.httpAdapter
      .getInstance<Application>()
      .use(undecodablePathMiddleware);
  }

  onModuleInit(): void {
    const app = this.adapterHost.httpAdapter.getInstance<Application>();
    // No automatic ETag: hashing every body cost measurable CPU per request.
    // The project routes set their own ETag from the project's version
    // (If-None-Match, If-Match: docs/api.md); other answers need none.
    app.set('etag', false);
    // Says nothing a client needs, and tells an attacker the framework.
    app.disable('x-powered-by');
  }
}
