import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { clientIpOf } from './client-ip';

/** The caller's IP address (client-ip.ts). */
export const ClientIp = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string =>
    clientIpOf(context.switchToHttp().getRequest<Request>()),
);
