import { Body, Controller, Delete, Param, Put, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Authenticated } from '../auth/authenticated.decorator';
import { sendJsonReply } from '../common/http/json-reply';
import type { Preconditions } from '../common/http/preconditions.decorator';
import { RequestPreconditions } from '../common/http/preconditions.decorator';
import type { RequestContext } from '../common/http/request-context';
import { Ctx } from '../common/http/request-context.decorator';
import { SelectAssetDto } from './dto/select-asset.dto';
import { sectionReply } from './section-replies';
import { SelectAssetEndpoint, UnselectAssetEndpoint } from './sections.openapi';
import { SectionsService } from './sections.service';

@ApiTags('sections')
@Controller('api/projects/:id/sections/:sectionId/selection')
@Authenticated()
export class SectionsController {
  constructor(private readonly sections: SectionsService) {}

  @Put()
  @SelectAssetEndpoint()
  async select(
    @Param('id') projectId: string,
    @Param('sectionId') sectionId: string,
    @Body() request: SelectAssetDto,
    @RequestPreconditions() conditions: Preconditions,
    @Ctx() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ) {
    const change = await this.sections.select(
      { projectId, sectionId },
      request.assetId,
      conditions.ifMatch,
      context,
    );
    return sendJsonReply(response, sectionReply(change));
  }

  @Delete()
  @UnselectAssetEndpoint()
  async unselect(
    @Param('id') projectId: string,
    @Param('sectionId') sectionId: string,
    @RequestPreconditions() conditions: Preconditions,
    @Ctx() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ) {
    const change = await this.sections.unselect(
      { projectId, sectionId },
      conditions.ifMatch,
      context,
    );
    return sendJsonReply(response, sectionReply(change));
  }
}
