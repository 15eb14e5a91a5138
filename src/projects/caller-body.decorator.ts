import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { getRequestContext } from '../common/http/request-context';
import { REQUEST_BODY } from '../common/validation/app-validation.pipe';

/**
 * The request body of a create, as `@Body()` gives it and validated the
 * same way, except that with AUTH_MODE=oidc a body that leaves `userId`
 * out gets the caller's (before validation, which would otherwise require
 * it). The request itself is left as it was read.
 */
export const CallerBody = () => callerBody(REQUEST_BODY);

const callerBody = createParamDecorator(
  (_data: unknown, context: ExecutionContext): unknown => {
    const request = context.switchToHttp().getRequest<Request>();
    const body: unknown = request.body;
    const { caller } = getRequestContext(request);
    if (caller && isJsonObject(body) && body.userId === undefined) {
      return { ...body, userId: caller.userId };
    }
    return body;
  },
);

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
