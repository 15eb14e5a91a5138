import {
  Body,
  Controller,
  Delete,
  Get,
  Inject,
  Param,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { appConfig } from '../../config/app.config';
import type { AppConfig } from '../../config/environment';
import { Authenticated } from '../auth/authenticated.decorator';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { ClientAbortSignal } from '../common/http/client-abort-signal.decorator';
import { ClientIp } from '../common/http/client-ip.decorator';
import { sendJsonReply } from '../common/http/json-reply';
import type { Preconditions } from '../common/http/preconditions.decorator';
import { RequestPreconditions } from '../common/http/preconditions.decorator';
import {
  publicBaseUrl,
  publicBaseUrlOrRelative,
} from '../common/http/public-base-url';
import type { Caller } from '../common/http/request-context';
import type { IdempotentKey } from '../idempotency/idempotency-key.decorator';
import { IdempotencyKey } from '../idempotency/idempotency-key.decorator';
import { assetReply, deletedAssetReply } from './asset-replies';
import {
  DeleteAssetEndpoint,
  GetAssetEndpoint,
  KeepLogoEndpoint,
} from './assets.openapi';
import { logoCallerOf } from '../logo/logo-caller';
import { AssetsService } from './assets.service';
import { KeepLogoDto } from './dto/keep-logo.dto';

@ApiTags('assets')
@Controller('api/projects/:id')
@Authenticated()
export class ProjectAssetsController {
  private readonly configuredBaseUrl: string | undefined;

  constructor(
    private readonly assets: AssetsService,
    @Inject(appConfig.KEY) config: AppConfig,
  ) {
    this.configuredBaseUrl = config.publicBaseUrl;
  }

  @Post('logos')
  @KeepLogoEndpoint()
  async keepLogo(
    @Param('id') id: string,
    @Body() request: KeepLogoDto,
    @ClientIp() client: string,
    @ClientAbortSignal() signal: AbortSignal,
    @IdempotencyKey({ operation: 'POST /api/projects/{id}/logos' })
    key: IdempotentKey | undefined,
    @CurrentCaller() caller: Caller | undefined,
    @Req() incoming: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    // Before anything is paid for: the asset's url needs this origin.
    const baseUrl = publicBaseUrl(this.configuredBaseUrl, incoming);
    const reply = await this.assets.keepLogo(
      id,
      request,
      logoCallerOf({
        caller,
        clientIp: client,
        signal,
        baseUrl: () => baseUrl,
        response,
      }),
      baseUrl,
      caller?.userId,
      key,
    );
    return sendJsonReply(response, reply);
  }

  @Get('assets/:assetId')
  @GetAssetEndpoint()
  async get(
    @Param('id') id: string,
    @Param('assetId') assetId: string,
    @CurrentCaller() caller: Caller | undefined,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    const baseUrl = publicBaseUrlOrRelative(this.configuredBaseUrl, request);
    return sendJsonReply(
      response,
      assetReply(await this.assets.get(id, assetId, baseUrl, caller)),
    );
  }

  @Delete('assets/:assetId')
  @DeleteAssetEndpoint()
  async remove(
    @Param('id') id: string,
    @Param('assetId') assetId: string,
    @RequestPreconditions() conditions: Preconditions,
    @CurrentCaller() caller: Caller | undefined,
    @Res({ passthrough: true }) response: Response,
  ) {
    return sendJsonReply(
      response,
      deletedAssetReply(
        await this.assets.remove(id, assetId, conditions.ifMatch, caller),
      ),
    );
  }
}
