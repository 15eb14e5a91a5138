import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../auth/authenticated.decorator';
import type { CallContext } from '../common/call-context';
import { Ctx } from '../common/http/request-context.decorator';
import { RollbackSiteDto } from './dto/rollback-site.dto';
import type { SiteResponseDto } from './dto/site.dto';
import {
  DeleteSiteEndpoint,
  GetSiteEndpoint,
  RollbackSiteEndpoint,
} from './sites.openapi';
import { SitesService } from './sites.service';

@ApiTags('sites')
@Authenticated()
@Controller('api/projects/:id/site')
export class SitesController {
  constructor(private readonly sites: SitesService) {}

  @Get()
  @GetSiteEndpoint()
  async get(
    @Param('id') id: string,
    @Ctx() context: CallContext,
  ): Promise<SiteResponseDto> {
    return { site: await this.sites.site(id, context) };
  }

  @Post('rollback')
  @HttpCode(200)
  @RollbackSiteEndpoint()
  async rollback(
    @Param('id') id: string,
    @Body() request: RollbackSiteDto,
    @Ctx() context: CallContext,
  ): Promise<SiteResponseDto> {
    return { site: await this.sites.rollback(id, request.version, context) };
  }

  @Delete()
  @HttpCode(204)
  @DeleteSiteEndpoint()
  async delete(
    @Param('id') id: string,
    @Ctx() context: CallContext,
  ): Promise<void> {
    await this.sites.takeDown(id, context);
  }
}
