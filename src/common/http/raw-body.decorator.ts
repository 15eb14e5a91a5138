import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * The parsed JSON body exactly as sent. Unlike @Body(), it skips the global
 * validation pipe, which would turn a `null` body into `{}`.
 */
export const RawBody = createParamDecorator(
  (_data: unknown, context: ExecutionContext): unknown =>
    context.switchToHttp().getRequest<Request>().body as unknown,
);
