import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { getRequestContext, type CallContext } from './request-context';

/** The request's context (request-context.ts), as AuthGuard made it. */
export const Ctx = createParamDecorator(
  (_data: unknown, context: ExecutionContext): CallContext =>
    getRequestContext(context.switchToHttp().getRequest<Request>()),
);
