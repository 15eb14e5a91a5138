import type { INestApplication } from '@nestjs/common';
import {
  ApplicationConfig,
  type AbstractHttpAdapter,
  type ModulesContainer,
} from '@nestjs/core';
import type { Application, Response } from 'express';
import { Reply } from '../common/http/reply';

/**
 * The only code that reaches past Nest's public API, and why.
 *
 * An app built from AppModule alone — `Test.createTestingModule({ imports:
 * [AppModule] })` then `createNestApplication()` with no options and no
 * main.ts, as NestJS e2e suites build it — must answer exactly like the
 * production process (test/full/sqlite/process/process.e2e-spec.ts sends the same requests to
 * both and compares; test/contract/sqlite/docs/api-docs.e2e-spec.ts compares the documents). Everything else that
 * shapes a response is a module using public hooks (HttpAdapterHost,
 * middleware, lifecycle hooks); two things have no public hook a module can
 * reach:
 *
 * - Nest's own body parsers. `bodyParser: false` is an option of
 *   `NestFactory.create`/`createNestApplication`, which a module cannot set;
 *   the adapter registers the parsers in `app.init()`, after every provider
 *   is built (a testing module builds them before the adapter even exists)
 *   and before any module's `configure()`. So they are removed from the
 *   Express router there ({@link removeNestBodyParsers}).
 * - `SwaggerModule.setup`/`createDocument`, which take the application
 *   object, and no provider can inject it. {@link swaggerApplication} gives
 *   them the three members they read, built from injectable objects.
 *
 * And one thing that has a public hook, too dear for every request: a
 * handler's Reply (status, headers, body) is applied where the adapter
 * sends a result ({@link sendReplies}), not by a global interceptor — with
 * any interceptor, Nest runs every route through its Observable chain,
 * which cost 19% more CPU per GET by id (8–11% on list, logo, create) in the A/B of
 * docs/performance.md.
 *
 * Both are covered by src/platform/app-parity.spec.ts and by the e2e suites
 * above; a Nest upgrade that changes either fails there.
 */

/** The names Nest gives its body parsers (ExpressAdapter.registerParserMiddleware). */
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
 * Removes Nest's JSON and urlencoded parsers (application/json only, 100 kB,
 * 400 on a parse error, before any route is known) from the Express router,
 * so JsonBodyGuard is the only body reader. Reads the router's layer list,
 * as Nest's own ExpressAdapter.isMiddlewareApplied does.
 */
export function removeNestBodyParsers(app: Application): void {
  const stack = (app.router as unknown as { stack: RouterLayer[] }).stack;
  for (let i = stack.length - 1; i >= 0; i--) {
    if (NEST_BODY_PARSERS.has(handlerName(stack[i].handle))) {
      stack.splice(i, 1);
    }
  }
}

/**
 * What SwaggerModule reads of an application: the module container and
 * whether a module is global (to scan the routes), the HTTP adapter (to
 * mount the UI and the document) and the application config — a fresh one,
 * which equals the app's: AppModule sets no global prefix and no versioning
 * (routes carry their full path, docs/decisions.md).
 */
export function swaggerApplication(
  modules: ModulesContainer,
  httpAdapter: AbstractHttpAdapter,
): INestApplication {
  return {
    container: {
      getModules: () => modules,
      isGlobalModule: () => false,
    },
    config: new ApplicationConfig(),
    getHttpAdapter: () => httpAdapter,
    useStaticAssets: (path: string, options: object) => {
      httpAdapter.useStaticAssets(path, options);
    },
  } as unknown as INestApplication;
}

/**
 * The adapter sends a handler's Reply as the route's answer: its status
 * and headers set, its body sent as any other result. Every handler that
 * is not `@Res()` ends in the adapter's `reply` (RouterResponseController
 * calls it on the adapter for each response), so this is the one place a
 * Reply meets the response.
 */
export function sendReplies(adapter: AbstractHttpAdapter): void {
  const send: (response: Response, body: unknown, status?: number) => unknown =
    adapter.reply.bind(adapter);
  adapter.reply = (response: Response, body: unknown, statusCode?: number) =>
    body instanceof Reply
      ? send(response, body.applyTo(response), statusCode)
      : send(response, body, statusCode);
}
