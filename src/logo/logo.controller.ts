import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { CallContext } from '../common/call-context';
import { Ctx } from '../common/http/request-context.decorator';
import { FailureMessage } from '../failures/failure-message.decorator';
import type { IdempotentRequest } from '../idempotency/idempotency-key.decorator';
import { IdempotencyKey } from '../idempotency/idempotency-key.decorator';
import { replyOrReplay } from '../idempotency/replayed';
import type { GeneratedLogo } from './generated-logo';
import { generatedLogoReply } from './logo-replies';
import { GenerateLogoDto } from './dto/generate-logo.dto';
import { LOGO_GENERIC_FAILURE } from './logo.constants';
import {
  GenerateLogoEndpoint,
  LogoGeneratorInfoEndpoint,
} from './logo.openapi';
import { Authenticated } from '../auth/authenticated.decorator';
import { LogoService } from './logo.service';

@ApiTags('logo')
@Controller('api/ai/generate-logo')
@Authenticated()
// Failures of every logo route (the generator information's too) are
// {success:false, error}; GenerateLogoEndpoint declares the same text with
// the 500 it documents.
@FailureMessage(LOGO_GENERIC_FAILURE, {
  envelope: 'success-flag',
  exposePublicErrors: true,
})
export class LogoController {
  constructor(private readonly logo: LogoService) {}

  @Post()
  @HttpCode(200)
  @GenerateLogoEndpoint()
  async generate(
    @Body() request: GenerateLogoDto,
    @IdempotencyKey({
      operation: 'POST /api/ai/generate-logo',
      answerOf: generatedLogoReply,
    })
    key: IdempotentRequest<GeneratedLogo> | undefined,
    @Ctx() context: CallContext,
  ) {
    const result = await this.logo.respond(request, context, key);
    return replyOrReplay(result, generatedLogoReply);
  }

  @Get()
  @LogoGeneratorInfoEndpoint()
  info() {
    return this.logo.describe();
  }
}
