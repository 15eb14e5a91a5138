import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ClientAbortSignal } from '../common/http/client-abort-signal.decorator';
import { ClientIp } from '../common/http/client-ip.decorator';
import { FailureMessage } from '../common/http/failure-message.decorator';
import { GenerateLogoDto } from './dto/generate-logo.dto';
import { LOGO_GENERIC_FAILURE, LOGO_SUCCESS_MESSAGE } from './logo.constants';
import { LogoService } from './logo.service';

@Controller('api/ai/generate-logo')
// SPEC §7: {success:false, error}, where error explains the failure when it
// can (key missing, upstream message, unreadable body), else the fixed text.
@FailureMessage(LOGO_GENERIC_FAILURE, {
  envelope: 'success-flag',
  exposePublicErrors: true,
})
export class LogoController {
  constructor(private readonly logo: LogoService) {}

  @Post()
  @HttpCode(200)
  async generate(
    @Body() request: GenerateLogoDto,
    @ClientIp() client: string,
    @ClientAbortSignal() signal: AbortSignal,
  ) {
    const logoUrl = await this.logo.generate(request, { client, signal });
    return { success: true, logoUrl, message: LOGO_SUCCESS_MESSAGE };
  }

  @Get()
  info() {
    return this.logo.describe();
  }
}
