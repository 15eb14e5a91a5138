import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../auth/authenticated.decorator';
import type { CallContext } from '../common/call-context';
import { Ctx } from '../common/http/request-context.decorator';
import { OptionalBody } from '../platform/body/optional-body.decorator';
import { CreateRunDto } from './dto/create-run.dto';
import { ListRunsQuery } from './dto/list-runs-query.dto';
import { acceptedRunReply, runReply, runsPageReply } from './run-replies';
import { RunsService } from './runs.service';
import {
  CancelRunEndpoint,
  CreateRunEndpoint,
  GetRunEndpoint,
  ListRunsEndpoint,
} from './runs.openapi';

@ApiTags('runs')
@Controller('api/projects/:id/runs')
@Authenticated()
export class RunsController {
  constructor(private readonly runs: RunsService) {}

  @Post()
  @HttpCode(HttpStatus.ACCEPTED)
  @CreateRunEndpoint()
  async create(
    @Param('id') id: string,
    @Body() request: CreateRunDto,
    @Ctx() context: CallContext,
  ) {
    return acceptedRunReply(await this.runs.create(id, request, context));
  }

  @Get()
  @ListRunsEndpoint()
  async list(
    @Param('id') id: string,
    @Query() query: ListRunsQuery,
    @Ctx() context: CallContext,
  ) {
    return runsPageReply(await this.runs.page(id, query, context));
  }

  @Get(':runId')
  @GetRunEndpoint()
  async get(
    @Param('id') id: string,
    @Param('runId') runId: string,
    @Ctx() context: CallContext,
  ) {
    return runReply(await this.runs.get(id, runId, context));
  }

  @Post(':runId/cancel')
  @CancelRunEndpoint()
  @HttpCode(HttpStatus.OK)
  @OptionalBody()
  async cancel(
    @Param('id') id: string,
    @Param('runId') runId: string,
    @Ctx() context: CallContext,
  ) {
    return runReply(await this.runs.cancel(id, runId, context));
  }
}
