import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../auth/authenticated.decorator';
import type { CallContext } from '../common/call-context';
import { Ctx } from '../common/http/request-context.decorator';
import { UsageReportEndpoint } from './usage.openapi';
import { UsageService } from './usage.service';

@ApiTags('usage')
@Controller('api/usage')
@Authenticated()
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @UsageReportEndpoint()
  report(@Ctx() context: CallContext) {
    return this.usage.report(context.clientKey);
  }
}
