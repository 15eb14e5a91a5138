import {
  Controller,
  Delete,
  Get,
  Header,
  Param,
  Patch,
  Post,
  Query,
  StreamableFile,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { JsonStreamResponder } from '../common/http/json-stream-responder';
import { JSON_CONTENT_TYPE } from '../common/http/json-text';
import type { Reply } from '../common/http/reply';
import type { Preconditions } from '../project-scope/preconditions.decorator';
import { RequestPreconditions } from '../project-scope/preconditions.decorator';
import { RawBody } from '../common/http/raw-body.decorator';
import type { IdempotentRequest } from '../idempotency/idempotency-key.decorator';
import { IdempotencyKey } from '../idempotency/idempotency-key.decorator';
import { replyOrReplay } from '../idempotency/replayed';
import {
  createdProjectReply,
  projectPageReply,
  projectReadReply,
  projectReply,
} from './project-replies';
import type { ProjectDocument } from './project-document';
import { CreateProjectDto } from './dto/create-project.dto';
import { asksForPage, ListProjectsQuery } from './dto/list-projects-query.dto';
import { Authenticated } from '../auth/authenticated.decorator';
import { CallerBody } from './caller-body.decorator';
import { Ctx } from '../common/http/request-context.decorator';
import type { CallContext } from '../common/call-context';
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
  constructor(
    private readonly projects: ProjectsService,
    private readonly streams: JsonStreamResponder,
  ) {}

  @Post()
  @CreateProjectEndpoint()
  async create(
    @CallerBody() input: CreateProjectDto,
    @IdempotencyKey({
      operation: 'POST /api/projects',
      answerOf: createdProjectReply,
    })
    key: IdempotentRequest<ProjectDocument> | undefined,
    @Ctx() context: CallContext,
  ) {
    const result = await this.projects.create(input, context, key);
    return replyOrReplay(result, createdProjectReply);
  }

  // GET bodies arrive as JSON text rendered by the database.
  @Get()
  @ListProjectsEndpoint()
  // Both bodies are JSON text: the stream's, and the page's (a Reply, for
  // X-Total-Count), which is sent as it is.
  @Header('Content-Type', JSON_CONTENT_TYPE)
  async list(
    @Query() query: ListProjectsQuery,
    @Ctx() context: CallContext,
  ): Promise<StreamableFile | Reply> {
    // The unpaged list can be any size: it is streamed, never built whole.
    if (!asksForPage(query)) {
      return this.streams.reply(
        await this.projects.listAll(query.userId, context),
      );
    }
    return projectPageReply(await this.projects.listPage(query, context));
  }

  @Get(':id')
  @GetProjectEndpoint()
  async get(
    @Param('id') id: string,
    @RequestPreconditions() conditions: Preconditions,
    @Ctx() context: CallContext,
  ) {
    return projectReadReply(
      await this.projects.get(id, conditions.ifNoneMatch, context),
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
    @Ctx() context: CallContext,
  ) {
    return projectReply(
      await this.projects.update(id, body, conditions.ifMatch, context),
    );
  }

  @Delete(':id')
  @DeleteProjectEndpoint()
  async remove(
    @Param('id') id: string,
    @RequestPreconditions() conditions: Preconditions,
    @Ctx() context: CallContext,
  ) {
    await this.projects.remove(id, conditions.ifMatch, context);
    return { success: true };
  }
}
