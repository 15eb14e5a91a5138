import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { ConfigType } from '@nestjs/config';
import { httpConfig } from '../platform/http.config';
import { sendJsonReply } from '../common/http/json-reply';
import { publicBaseUrl } from '../common/http/public-base-url';
import { ClientAbortSignal } from '../common/http/client-abort-signal.decorator';
import { ClientIp } from '../common/http/client-ip.decorator';
import { FailureMessage } from '../failures/failure-message.decorator';
import type { IdempotentRequest } from '../idempotency/idempotency-key.decorator';
import { IdempotencyKey } from '../idempotency/idempotency-key.decorator';
import { isReplayed, replayedReply } from '../idempotency/replayed';
import type { GeneratedLogo } from './generated-logo';
import { generatedLogoReply } from './logo-replies';
import { GenerateLogoDto } from './dto/generate-logo.dto';
import { LOGO_GENERIC_FAILURE } from './logo.constants';
import {
  GenerateLogoEndpoint,
  LogoGeneratorInfoEndpoint,
} from './logo.openapi';
import { Authenticated } from '../auth/authenticated.decorator';
import { CurrentCaller } from '../auth/current-caller.decorator';
import type { Caller } from '../common/http/request-context';
import { logoCallerOf } from './logo-caller';
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
  private readonly configuredBaseUrl: string | undefined;

  constructor(
    private readonly logo: LogoService,
    @Inject(httpConfig.KEY) http: ConfigType<typeof httpConfig>,
  ) {
    this.configuredBaseUrl = http.publicBaseUrl;
  }

  @Post()
  @HttpCode(200)
  @GenerateLogoEndpoint()
  async generate(
    @Body() request: GenerateLogoDto,
    @ClientIp() client: string,
    @ClientAbortSignal() signal: AbortSignal,
    @IdempotencyKey({
      operation: 'POST /api/ai/generate-logo',
      answerOf: generatedLogoReply,
    })
    key: IdempotentRequest<GeneratedLogo> | undefined,
    @CurrentCaller() caller: Caller | undefined,
    @Req() incoming: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    const result = await this.logo.respond(
      request,
      logoCallerOf({
        caller,
        clientIp: client,
        signal,
        baseUrl: () => publicBaseUrl(this.configuredBaseUrl, incoming),
        response,
      }),
      key,
    );
    return sendJsonReply(
      response,
      isReplayed(result) ? replayedReply(result) : generatedLogoReply(result),
    );
  }

  @Get()
  @LogoGeneratorInfoEndpoint()
  info() {
    return this.logo.describe();
  }
}
