import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { getCaller, type Caller } from '../common/http/request-context';

/** The caller AuthGuard proved; undefined when AUTH_MODE=none. */
export const CurrentCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Caller | undefined =>
    getCaller(context.switchToHttp().getRequest<Request>()),
);
