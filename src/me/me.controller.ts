import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../auth/authenticated.decorator';
import type { CallContext } from '../common/call-context';
import { Reply } from '../common/http/reply';
import { Ctx } from '../common/http/request-context.decorator';
import { MeEndpoint } from './me.openapi';
import { MeService } from './me.service';

@ApiTags('me')
@Controller('api/me')
@Authenticated()
export class MeController {
  constructor(private readonly me: MeService) {}

  @Get()
  @MeEndpoint()
  get(@Ctx() context: CallContext): Reply {
    // Per caller: no shared cache may keep one caller's answer for another.
    return new Reply(
      200,
      { 'Cache-Control': 'private, no-store' },
      JSON.stringify(this.me.whoAmI(context)),
    );
  }
}
