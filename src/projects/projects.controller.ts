import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  Param,
  Patch,
  Post,
  Query,
  Res,
  StreamableFile,
} from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { sendAnswer } from '../common/http/answer';
import {
  ErrorResponseDto,
  RETRY_AFTER_HEADER,
  ValidationErrorResponseDto,
} from '../failures/error-responses.dto';
import { ClientIp } from '../common/http/client-ip.decorator';
import { FailureMessage } from '../failures/failure-message.decorator';
import { JsonStreamResponder } from '../common/http/json-stream.responder';
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
import {
  ApiIdempotencyKey,
  ApiIfMatch,
  ApiIfNoneMatch,
  ETAG_HEADER,
  REPLAYED_HEADER,
} from '../docs/conditional-headers.docs';
import { CreateProjectDto } from './dto/create-project.dto';
import { PROJECT_CREATE_RATE_LIMITED_MESSAGE } from './project.constants';
import { ListProjectsQuery } from './dto/list-projects.query';
import {
  DeleteProjectResponseDto,
  ProjectDetailResponseDto,
  ProjectListResponseDto,
  ProjectResponseDto,
  UpdateProjectBodyDto,
} from './dto/project-responses.dto';
import {
  Authenticated,
  UserIdFromCaller,
} from '../auth/authenticated.decorator';
import { CurrentCaller } from '../auth/current-caller.decorator';
import type { Caller } from '../common/http/request-context';
import { ProjectsService } from './projects.service';
import { TOO_MANY_LISTS_MESSAGE } from './list-slots';
import { LISTS_BUSY_MESSAGE } from '../database/snapshot-reader';

/** `{error}` with a fixed text: the route's failure (docs/api.md). */
const failure = (status: number, error: string, description: string) =>
  ApiResponse({
    status,
    description,
    type: ErrorResponseDto,
    example: { error },
  });

const invalidInput = ApiResponse({
  status: 400,
  description: 'A validation rule failed (one issue per failed rule)',
  type: ValidationErrorResponseDto,
  example: {
    error: 'Invalid input',
    details: [
      {
        path: ['name'],
        message: 'String must contain at most 100 character(s)',
        code: 'too_big',
      },
    ],
  },
});

const bodyTooLarge = failure(
  413,
  'Request body is too large',
  'The body is larger than BODY_LIMIT (default 1 MB)',
);

const bodyTooSlow = failure(
  408,
  'Request body was not received in time',
  'A body over 64 KB did not arrive within 10 s of its turn to be read (large bodies are read one at a time); the connection is closed',
);

const unsupportedMediaType = failure(
  415,
  'Unsupported media type',
  'CORS_ORIGINS is set and the Content-Type is one a browser sends without a CORS preflight (text/plain, application/x-www-form-urlencoded, multipart/form-data) or none',
);

const LOCATION_HEADER = {
  Location: {
    description: 'The path of the new project: `/api/projects/{id}`',
    schema: {
      type: 'string',
      example: '/api/projects/019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21',
    },
  },
};

const PROJECT_EXAMPLE = {
  id: '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21',
  name: 'Spring launch',
  description: 'Brand kit',
  userId: 'user-1',
  createdAt: '2026-11-22T03:39:09.321Z',
  updatedAt: '2026-11-22T03:39:09.321Z',
};

@ApiTags('projects')
@Controller('api/projects')
@Authenticated()
export class ProjectsController {
  constructor(
    private readonly projects: ProjectsService,
    private readonly streams: JsonStreamResponder,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a project with its 8 sections and 3 agents',
    operationId: 'createProject',
  })
  @ApiBody({
    type: CreateProjectDto,
    examples: {
      project: {
        summary: 'A project',
        value: {
          name: 'Spring launch',
          description: 'Brand kit',
          userId: 'user-1',
        },
      },
    },
  })
  @ApiResponse({
    status: 201,
    description:
      'The project, with its sections and agents (or, with `Idempotent-Replayed: true`, the answer first given for this Idempotency-Key)',
    type: ProjectResponseDto,
    headers: { ...ETAG_HEADER, ...LOCATION_HEADER, ...REPLAYED_HEADER },
    example: { project: { ...PROJECT_EXAMPLE, sections: [], agents: [] } },
  })
  @ApiIdempotencyKey('error')
  @invalidInput
  @bodyTooLarge
  @bodyTooSlow
  @unsupportedMediaType
  @ApiResponse({
    status: 429,
    description:
      'The client is over its rate limit (PROJECT_CREATE_RATE_LIMIT per PROJECT_CREATE_RATE_WINDOW_S; off by default)',
    type: ErrorResponseDto,
    headers: RETRY_AFTER_HEADER,
    example: { error: PROJECT_CREATE_RATE_LIMITED_MESSAGE },
  })
  @failure(
    500,
    'Failed to create project',
    'Any other failure, including a body that is empty or not JSON',
  )
  @FailureMessage('Failed to create project')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  @UserIdFromCaller()
  async create(
    @Body() input: CreateProjectDto,
    @ClientIp() client: string,
    @IdempotencyKey('POST /api/projects') key: IdempotentRequest | undefined,
    @CurrentCaller() caller: Caller | undefined,
    @Res({ passthrough: true }) response: Response,
  ) {
    // The rate limit counts per proven user, or per address without one.
    const budget = caller ? `user:${caller.userId}` : client;
    return sendAnswer(
      response,
      await this.projects.create(input, budget, key, caller),
    );
  }

  // GET bodies arrive as JSON text rendered by the database.
  @Get()
  @ApiOperation({
    summary: 'List projects, most recently updated first',
    description:
      'Without `limit`, every project (of `userId` when given). With `limit`, one page and `nextCursor`.',
    operationId: 'listProjects',
  })
  @ApiResponse({
    status: 200,
    description: 'The projects, with sections, agents, tasks and `_count`',
    type: ProjectListResponseDto,
    example: {
      projects: [
        {
          ...PROJECT_EXAMPLE,
          sections: [],
          agents: [],
          tasks: [],
          _count: { tasks: 0, assets: 0 },
        },
      ],
    },
  })
  @invalidInput
  @ApiResponse({
    status: 429,
    description:
      'Without `limit`: the client already runs LIST_CLIENT_LIMIT full lists, and none ended within 10 s',
    type: ErrorResponseDto,
    headers: RETRY_AFTER_HEADER,
    example: { error: TOO_MANY_LISTS_MESSAGE },
  })
  @ApiResponse({
    status: 503,
    description:
      'Without `limit`: every list connection of this instance stayed in use for 2 s (PostgreSQL)',
    type: ErrorResponseDto,
    headers: RETRY_AFTER_HEADER,
    example: { error: LISTS_BUSY_MESSAGE },
  })
  @failure(500, 'Failed to fetch projects', 'The list could not be read')
  @FailureMessage('Failed to fetch projects')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  async list(
    @Query() query: ListProjectsQuery,
    @CurrentCaller() caller: Caller | undefined,
    @ClientIp() client: string,
  ): Promise<StreamableFile | string> {
    // The unpaged list can be any size: it is streamed, never built whole.
    if (query.limit === undefined && query.cursor === undefined) {
      const budget = caller ? `user:${caller.userId}` : client;
      return this.streams.reply(
        await this.projects.listAll(query.userId, caller, budget),
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
  @ApiOperation({
    summary: 'Fetch one project with all its relations',
    operationId: 'getProject',
  })
  @ApiResponse({
    status: 200,
    description:
      'The project, with sections (each with its assets), agents, tasks (newest first) and assets',
    type: ProjectDetailResponseDto,
    headers: ETAG_HEADER,
    example: {
      project: {
        ...PROJECT_EXAMPLE,
        sections: [],
        agents: [],
        tasks: [],
        assets: [],
      },
    },
  })
  @ApiIfNoneMatch()
  @failure(404, 'Project not found', 'No project has this id')
  @failure(500, 'Failed to fetch project', 'The project could not be read')
  @FailureMessage('Failed to fetch project')
  async get(
    @Param('id') id: string,
    @RequestPreconditions() conditions: Preconditions,
    @CurrentCaller() caller: Caller | undefined,
    @Res({ passthrough: true }) response: Response,
  ) {
    return sendAnswer(
      response,
      await this.projects.get(id, conditions.ifNoneMatch, caller),
    );
  }

  // PATCH applies the body without validation (docs/api.md), so it bypasses the
  // validation pipe; the service decides whether it can be applied.
  @Patch(':id')
  @ApiOperation({
    summary: 'Change name, description or userId',
    description:
      'Applied as given, field by field: `name` (a string of any length, empty too), `description` (a string of any length, or null), `userId` (a string of at most 255 characters); `id`, `createdAt` and `updatedAt` are ignored, and `updatedAt` is set to now. No NUL and no lone surrogate in any text. Anything else cannot be applied (an unknown id, any other field such as the relations of a fetched project, a wrong JSON type, null for name or userId, a body that is not a JSON object): 500, and nothing changes. The body limit (BODY_LIMIT) bounds the lengths; with PATCH_LENGTH_LIMITS=true name must be 1 to 100 characters and description at most 500, as on create.',
    operationId: 'updateProject',
  })
  @ApiBody({
    type: UpdateProjectBodyDto,
    examples: {
      rename: { summary: 'Rename', value: { name: 'Summer launch' } },
    },
  })
  @ApiResponse({
    status: 200,
    description: 'The changed project, with sections and agents',
    type: ProjectResponseDto,
    headers: ETAG_HEADER,
    example: {
      project: {
        ...PROJECT_EXAMPLE,
        name: 'Summer launch',
        sections: [],
        agents: [],
      },
    },
  })
  @bodyTooLarge
  @bodyTooSlow
  @unsupportedMediaType
  @failure(
    500,
    'Failed to update project',
    'The update failed, for any reason (an unknown id included)',
  )
  @ApiIfMatch('update')
  @FailureMessage('Failed to update project')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  async update(
    @Param('id') id: string,
    @RawBody() body: unknown,
    @RequestPreconditions() conditions: Preconditions,
    @CurrentCaller() caller: Caller | undefined,
    @Res({ passthrough: true }) response: Response,
  ) {
    return sendAnswer(
      response,
      await this.projects.update(id, body, conditions.ifMatch, caller),
    );
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a project and its sections, agents, tasks and assets',
    operationId: 'deleteProject',
  })
  @ApiResponse({
    status: 200,
    description: 'Deleted',
    type: DeleteProjectResponseDto,
    example: { success: true },
  })
  @failure(
    500,
    'Failed to delete project',
    'The delete failed, for any reason (an unknown id included)',
  )
  @ApiIfMatch('delete')
  @FailureMessage('Failed to delete project')
  async remove(
    @Param('id') id: string,
    @RequestPreconditions() conditions: Preconditions,
    @CurrentCaller() caller: Caller | undefined,
  ) {
    await this.projects.remove(id, conditions.ifMatch, caller);
    return { success: true };
  }
}
