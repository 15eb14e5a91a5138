import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { readIfMatch, readIfNoneMatch } from './project-version';
import type {
  ExpectedVersions,
  HeldRepresentations,
} from './version-conditions';

/** The request's conditional headers; each undefined when not sent. */
export interface Preconditions {
  ifMatch?: ExpectedVersions;
  ifNoneMatch?: HeldRepresentations;
}

/**
 * If-Match and If-None-Match, read at the edge as the project versions
 * they name (project-version.ts): the services see versions, never
 * entity-tags.
 */
export const RequestPreconditions = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Preconditions => {
    const { headers } = context.switchToHttp().getRequest<Request>();
    return {
      ifMatch: readIfMatch(headers['if-match']),
      ifNoneMatch: readIfNoneMatch(headers['if-none-match']),
    };
  },
);
