import { Body, Controller, Delete, Param, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../auth/authenticated.decorator';
import type { Preconditions } from '../project-scope/preconditions.decorator';
import { RequestPreconditions } from '../project-scope/preconditions.decorator';
import type { CallContext } from '../common/call-context';
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
    @Ctx() context: CallContext,
  ) {
    const change = await this.sections.select(
      { projectId, sectionId },
      request.assetId,
      conditions.ifMatch,
      context,
    );
    return sectionReply(change);
  }

  @Delete()
  @UnselectAssetEndpoint()
  async unselect(
    @Param('id') projectId: string,
    @Param('sectionId') sectionId: string,
    @RequestPreconditions() conditions: Preconditions,
    @Ctx() context: CallContext,
  ) {
    const change = await this.sections.unselect(
      { projectId, sectionId },
      conditions.ifMatch,
      context,
    );
    return sectionReply(change);
  }
}
