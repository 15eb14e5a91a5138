import {
  Body,
  Controller,
  Delete,
  Get,
  Param,
  Post,
  Res,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Authenticated } from '../auth/authenticated.decorator';
import { sendJsonReply } from '../common/http/json-reply';
import type { Preconditions } from '../common/http/preconditions.decorator';
import { RequestPreconditions } from '../common/http/preconditions.decorator';
import type { RequestContext } from '../common/http/request-context';
import { Ctx } from '../common/http/request-context.decorator';
import type { IdempotentKey } from '../idempotency/idempotency-key.decorator';
import { IdempotencyKey } from '../idempotency/idempotency-key.decorator';
import { assetReply, deletedAssetReply } from './asset-replies';
import {
  DeleteAssetEndpoint,
  GetAssetEndpoint,
  KeepLogoEndpoint,
} from './assets.openapi';
import { AssetsService } from './assets.service';
import { KeepLogoBodyPipe, type KeepLogoBody } from './keep-logo-body.pipe';

@ApiTags('assets')
@Controller('api/projects/:id')
@Authenticated()
export class ProjectAssetsController {
  constructor(private readonly assets: AssetsService) {}

  @Post('logos')
  @KeepLogoEndpoint()
  async keepLogo(
    @Param('id') id: string,
    @Body(KeepLogoBodyPipe) request: KeepLogoBody,
    @IdempotencyKey({ operation: 'POST /api/projects/{id}/logos' })
    key: IdempotentKey | undefined,
    @Ctx() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ) {
    const reply = await this.assets.keepLogo(id, request, context, key);
    return sendJsonReply(response, reply);
  }

  @Get('assets/:assetId')
  @GetAssetEndpoint()
  async get(
    @Param('id') id: string,
    @Param('assetId') assetId: string,
    @Ctx() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ) {
    return sendJsonReply(
      response,
      assetReply(await this.assets.get(id, assetId, context)),
    );
  }

  @Delete('assets/:assetId')
  @DeleteAssetEndpoint()
  async remove(
    @Param('id') id: string,
    @Param('assetId') assetId: string,
    @RequestPreconditions() conditions: Preconditions,
    @Ctx() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ) {
    return sendJsonReply(
      response,
      deletedAssetReply(
        await this.assets.remove(id, assetId, conditions.ifMatch, context),
      ),
    );
  }
}
