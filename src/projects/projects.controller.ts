import {
  Controller,
  Delete,
  Get,
  Header,
  Inject,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
  StreamableFile,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { appConfig } from '../../config/app.config';
import type { AppConfig } from '../../config/environment';
import { publicBaseUrlOrRelative } from '../common/http/public-base-url';
import { sendJsonReply } from '../common/http/json-reply';
import { ClientIp } from '../common/http/client-ip.decorator';
import { JsonStreamResponder } from '../common/http/json-stream-responder';
import {
  JSON_CONTENT_TYPE,
  jsonArrayText,
  jsonObjectText,
} from '../common/http/json-text';
import type { Preconditions } from '../common/http/preconditions.decorator';
import { RequestPreconditions } from '../common/http/preconditions.decorator';
import { RawBody } from '../common/http/raw-body.decorator';
import type { IdempotentRequest } from '../idempotency/idempotency-key.decorator';
import { IdempotencyKey } from '../idempotency/idempotency-key.decorator';
import { isReplayed, replayedReply } from '../idempotency/replayed';
import {
  createdProjectReply,
  projectReadReply,
  projectReply,
} from './project-replies';
import type { ProjectDocument } from './project-document';
import { CreateProjectDto } from './dto/create-project.dto';
import { ListProjectsQuery } from './dto/list-projects.query';
import { Authenticated } from '../auth/authenticated.decorator';
import { CallerBody } from '../auth/caller-body.decorator';
import { CurrentCaller } from '../auth/current-caller.decorator';
import type { Caller } from '../common/http/request-context';
import { ProjectsService } from './projects.service';
import {
  CreateProjectEndpoint,
  DeleteProjectEndpoint,
  GetProjectEndpoint,
  ListProjectsEndpoint,
  UpdateProjectEndpoint,
} from './projects.openapi';

@ApiTags('projects')
@Controller('api/projects')
@Authenticated()
export class ProjectsController {
  private readonly configuredBaseUrl: string | undefined;

  constructor(
    private readonly projects: ProjectsService,
    private readonly streams: JsonStreamResponder,
    @Inject(appConfig.KEY) config: AppConfig,
  ) {
    this.configuredBaseUrl = config.publicBaseUrl;
  }

  @Post()
  @CreateProjectEndpoint()
  async create(
    @CallerBody() input: CreateProjectDto,
    @ClientIp() client: string,
    @IdempotencyKey({
      operation: 'POST /api/projects',
      answerOf: createdProjectReply,
    })
    key: IdempotentRequest<ProjectDocument> | undefined,
    @CurrentCaller() caller: Caller | undefined,
    @Res({ passthrough: true }) response: Response,
  ) {
    // The rate limit counts per proven user, or per address without one.
    const budget = caller ? `user:${caller.userId}` : client;
    const result = await this.projects.create(input, budget, key, caller);
    return sendJsonReply(
      response,
      isReplayed(result) ? replayedReply(result) : createdProjectReply(result),
    );
  }

  // GET bodies arrive as JSON text rendered by the database.
  @Get()
  @ListProjectsEndpoint()
  // Both bodies are JSON text: the stream's, and the page's, which Nest
  // sends as it is.
  @Header('Content-Type', JSON_CONTENT_TYPE)
  async list(
    @Query() query: ListProjectsQuery,
    @CurrentCaller() caller: Caller | undefined,
    @ClientIp() client: string,
  ): Promise<StreamableFile | string> {
    // The unpaged list can be any size: it is streamed, never built whole.
    if (query.limit === undefined && query.cursor === undefined) {
      // Counted per user (or address) and per address (fair-gate.ts).
      const identity = caller ? `user:${caller.userId}` : client;
      return this.streams.reply(
        await this.projects.listAll(query.userId, caller, {
          identity,
          address: client,
        }),
      );
    }
    const { projects, nextCursor } = await this.projects.listPage(
      query,
      caller,
    );
    return jsonObjectText({
      projects: jsonArrayText(projects),
      nextCursor: JSON.stringify(nextCursor),
    });
  }

  @Get(':id')
  @GetProjectEndpoint()
  async get(
    @Param('id') id: string,
    @RequestPreconditions() conditions: Preconditions,
    @CurrentCaller() caller: Caller | undefined,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    return sendJsonReply(
      response,
      projectReadReply(
        await this.projects.get(
          id,
          conditions.ifNoneMatch,
          caller,
          publicBaseUrlOrRelative(this.configuredBaseUrl, request),
        ),
      ),
    );
  }

  // PATCH applies the body without validation (docs/api.md), so it bypasses the
  // validation pipe; the service decides whether it can be applied.
  @Patch(':id')
  @UpdateProjectEndpoint()
  async update(
    @Param('id') id: string,
    @RawBody() body: unknown,
    @RequestPreconditions() conditions: Preconditions,
    @CurrentCaller() caller: Caller | undefined,
    @Res({ passthrough: true }) response: Response,
  ) {
    return sendJsonReply(
      response,
      projectReply(
        await this.projects.update(id, body, conditions.ifMatch, caller),
      ),
    );
  }

  @Delete(':id')
  @DeleteProjectEndpoint()
  async remove(
    @Param('id') id: string,
    @RequestPreconditions() conditions: Preconditions,
    @CurrentCaller() caller: Caller | undefined,
  ) {
    await this.projects.remove(id, conditions.ifMatch, caller);
    return { success: true };
  }
}
