import { Module, NestModule } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application } from 'express';

/** The names Nest gives its body parsers (ExpressAdapter.isMiddlewareApplied). */
const NEST_BODY_PARSERS = new Set(['jsonParser', 'urlencodedParser']);

interface LayerHandle {
  name?: string;
  /** The function a wrapper replaced (shimmer, as OpenTelemetry wraps layers). */
  __original?: LayerHandle;
}

interface RouterLayer {
  handle?: LayerHandle;
}

/**
 * The layer's function name, under any wrappers: with tracing on, the
 * express instrumentation wraps every layer's handle, and a parser missed
 * here would read the body before JsonBodyGuard (which then waited
 * forever for a body already read).
 */
function handlerName(handle: LayerHandle | undefined): string {
  let current = handle;
  while (current?.__original) current = current.__original;
  return current?.name ?? '';
}

/**
 * Makes our JSON body reading the only one, however the app was created.
 *
 * Nest registers its own parsers (application/json only, 100 kB, 400 on a
 * parse error, before any route is known) unless the app is created with
 * `bodyParser: false` — which main.ts could do, but an app built from
 * AppModule in a test would not. Nest has added its parser layers to the
 * Express router by the time modules are configured, so they are removed
 * here; JsonBodyGuard (run by AppGuard, after AuthGuard) takes
 * their place once the route and the caller are known.
 */
@Module({})
export class JsonBodyModule implements NestModule {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  configure(): void {
    const app = this.adapterHost.httpAdapter.getInstance<Application>();
    const stack = (app.router as unknown as { stack: RouterLayer[] }).stack;
    for (let i = stack.length - 1; i >= 0; i--) {
      if (NEST_BODY_PARSERS.has(handlerName(stack[i].handle))) {
        stack.splice(i, 1);
      }
    }
  }
}
