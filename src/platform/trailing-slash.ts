import { NotFoundException } from '@nestjs/common';
import type { Request } from 'express';

/**
 * Express matches `/api/projects/` to the route `/api/projects` (its
 * routing ignores one trailing slash), so the list answered there while
 * the OpenAPI document, and every client generated from it, read that path
 * as `/api/projects/{id}` with an empty id. Each route answers at its exact
 * path only; the other spelling is an unknown route, thrown before the
 * route's failure policy is known, so it gets the unknown-route 404
 * `{error:"Not found"}`. ('strict routing' cannot be set from a module:
 * Express builds its router, and reads the setting, before modules run.)
 */
export function refuseTrailingSlash(request: Request): void {
  const path = request.path;
  if (path.length > 1 && path.endsWith('/')) throw new NotFoundException();
}
