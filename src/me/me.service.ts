import { Injectable } from '@nestjs/common';
import type { CallContext } from '../common/call-context';
import type { MeDto } from './me.dto';

/**
 * Who the caller is, as the service knows it: the verified token's
 * claims with AUTH_MODE=oidc; without authentication, no one (an
 * anonymous caller: docs/decisions.md, "GET /api/me").
 */
@Injectable()
export class MeService {
  whoAmI(context: CallContext): MeDto {
    const caller = context.caller;
    if (caller === undefined) {
      return { authenticated: false, userId: null, roles: [], admin: false };
    }
    return {
      authenticated: true,
      userId: caller.userId,
      ...(caller.name === undefined ? {} : { name: caller.name }),
      ...(caller.email === undefined ? {} : { email: caller.email }),
      roles: [...(caller.roles ?? [])],
      admin: caller.admin,
    };
  }
}
