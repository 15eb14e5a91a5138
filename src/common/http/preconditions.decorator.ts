import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { EntityTagCondition, parseEntityTags } from './entity-tags';

/** The request's conditional headers; each undefined when not sent. */
export interface Preconditions {
  ifMatch?: EntityTagCondition;
  ifNoneMatch?: EntityTagCondition;
}

/** If-Match and If-None-Match, parsed (entity-tags.ts). */
export const RequestPreconditions = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Preconditions => {
    const { headers } = context.switchToHttp().getRequest<Request>();
    return {
      ifMatch: parseEntityTags(headers['if-match']),
      ifNoneMatch: parseEntityTags(headers['if-none-match']),
    };
  },
);
