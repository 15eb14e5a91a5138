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
import type { IdempotentRequest } from '../idempotency/idempotency-key.decorator';
import { IdempotencyKey } from '../idempotency/idempotency-key.decorator';
import { isReplayed, replayedReply } from '../idempotency/replayed';
import { assetReply, deletedAssetReply, keptAssetReply } from './asset-replies';
import {
  DeleteAssetEndpoint,
  GetAssetEndpoint,
  KeepLogoEndpoint,
} from './assets.openapi';
import { AssetsService } from './assets.service';
import { KeepLogoDto } from './dto/keep-logo.dto';
import type { KeptAsset } from './kept-asset';

@ApiTags('assets')
@Controller('api/projects/:id')
@Authenticated()
export class ProjectAssetsController {
  constructor(private readonly assets: AssetsService) {}

  @Post('logos')
  @KeepLogoEndpoint()
  async keepLogo(
    @Param('id') id: string,
    @Body() request: KeepLogoDto,
    @IdempotencyKey({
      operation: 'POST /api/projects/{id}/logos',
      answerOf: keptAssetReply,
    })
    key: IdempotentRequest<KeptAsset> | undefined,
    @Ctx() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ) {
    const result = await this.assets.keepLogo(id, request, context, key);
    return sendJsonReply(
      response,
      isReplayed(result) ? replayedReply(result) : keptAssetReply(result),
    );
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
