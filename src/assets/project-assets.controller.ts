import {
  Body,
  Controller,
  Delete,
  Get,
  Param,
  Post,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { AcceptsUpload } from '../platform/body/accepts-upload.decorator';
import {
  UPLOAD_FILE_FIELD,
  UploadFailuresInterceptor,
  UploadedLogoInterceptor,
} from './uploaded-logo.interceptor';
import { ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../auth/authenticated.decorator';
import type { Preconditions } from '../project-scope/preconditions.decorator';
import { RequestPreconditions } from '../project-scope/preconditions.decorator';
import type { CallContext } from '../common/call-context';
import { Ctx } from '../common/http/request-context.decorator';
import type { IdempotentRequest } from '../idempotency/idempotency-key.decorator';
import { IdempotencyKey } from '../idempotency/idempotency-key.decorator';
import { replyOrReplay } from '../idempotency/replayed';
import { assetReply, deletedAssetReply, keptLogoReply } from './asset-replies';
import type { KeptLogo } from './kept-asset';
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
  @AcceptsUpload()
  @UseInterceptors(
    UploadFailuresInterceptor,
    FileInterceptor(UPLOAD_FILE_FIELD),
    UploadedLogoInterceptor,
  )
  async keepLogo(
    @Param('id') id: string,
    @Body(KeepLogoBodyPipe) request: KeepLogoBody,
    @IdempotencyKey({
      operation: 'POST /api/projects/{id}/logos',
      answerOf: keptLogoReply,
    })
    key: IdempotentRequest<KeptLogo> | undefined,
    @Ctx() context: CallContext,
  ) {
    return replyOrReplay(
      await this.assets.keepLogo(id, request, context, key),
      keptLogoReply,
    );
  }

  @Get('assets/:assetId')
  @GetAssetEndpoint()
  async get(
    @Param('id') id: string,
    @Param('assetId') assetId: string,
    @Ctx() context: CallContext,
  ) {
    return assetReply(await this.assets.get(id, assetId, context));
  }

  @Delete('assets/:assetId')
  @DeleteAssetEndpoint()
  async remove(
    @Param('id') id: string,
    @Param('assetId') assetId: string,
    @RequestPreconditions() conditions: Preconditions,
    @Ctx() context: CallContext,
  ) {
    return deletedAssetReply(
      await this.assets.remove(id, assetId, conditions.ifMatch, context),
    );
  }
}
