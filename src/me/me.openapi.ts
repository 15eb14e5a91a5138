import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ApiAuth } from '../failures/failure-responses.openapi';
import { ANONYMOUS_EXAMPLE, ME_EXAMPLE, MeDto } from './me.dto';

export const MeEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'The caller',
      description:
        "Who the service takes the caller for. With AUTH_MODE=oidc: the verified bearer token's user id, `name`, `email` and roles (a page signed in through the OpenID Provider reads it to know whose projects it shows). Without authentication: `authenticated: false`, `userId: null`, no roles; every request then names its own userId.",
      operationId: 'getMe',
    }),
    ApiResponse({
      status: 200,
      description: `The caller. Without authentication: ${JSON.stringify(ANONYMOUS_EXAMPLE)}`,
      type: MeDto,
      example: ME_EXAMPLE,
    }),
    ApiAuth('error', 'required'),
  );
