import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { LISTS_BUSY_MESSAGE } from '../database/snapshot-reader';
import {
  ApiIdempotencyKey,
  ApiIfMatch,
  ApiIfNoneMatch,
  ETAG_HEADER,
  locationHeader,
  REPLAYED_HEADER,
} from '../docs/conditional-headers.openapi';
import {
  ApiAuth,
  ApiBodyFailures,
  ApiFailure,
  ApiInvalidInput,
  ApiRetryLater,
  ApiRouteFailure,
} from '../failures/failure-responses.openapi';
import { CreateProjectDto } from './dto/create-project.dto';
import {
  DeleteProjectResponseDto,
  PROJECT_EXAMPLE,
  ProjectDetailResponseDto,
  ProjectListResponseDto,
  ProjectResponseDto,
  UpdateProjectBodyDto,
} from './dto/project-responses.dto';
import { TOO_MANY_LISTS_MESSAGE } from './list-slots';
import { PROJECT_CREATE_RATE_LIMITED_MESSAGE } from './projects.constants';

/**
 * The OpenAPI description of each project route, one composite decorator
 * per route, so that the controller reads as a list of routes. Each also
 * declares the route's failure text (ApiRouteFailure), which the
 * exception filter sends.
 */

const LOCATION_HEADER = locationHeader('the new project', '/api/projects/{id}');

const TOTAL_COUNT_HEADER = {
  'X-Total-Count': {
    description:
      'Only with `includeTotal=true`: the projects that match `userId` and `q` (the body’s `total`)',
    schema: { type: 'integer', minimum: 0, example: 42 },
  },
};

const invalidInput = () =>
  ApiInvalidInput(
    'error',
    'A validation rule failed (one issue per failed rule)',
    {
      path: ['name'],
      message: 'String must contain at most 100 character(s)',
      code: 'too_big',
    },
  );

export const CreateProjectEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Create a project with its 8 sections and 3 agents',
      operationId: 'createProject',
    }),
    ApiBody({
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
    }),
    ApiResponse({
      status: 201,
      description:
        'The project, with its sections and agents (or, with `Idempotent-Replayed: true`, the answer first given for this Idempotency-Key)',
      type: ProjectResponseDto,
      headers: { ...ETAG_HEADER, ...LOCATION_HEADER, ...REPLAYED_HEADER },
      example: { project: { ...PROJECT_EXAMPLE, sections: [], agents: [] } },
    }),
    ApiIdempotencyKey('error'),
    invalidInput(),
    ApiBodyFailures('error'),
    ApiRetryLater(
      'error',
      429,
      PROJECT_CREATE_RATE_LIMITED_MESSAGE,
      'The client is over its rate limit (PROJECT_CREATE_RATE_LIMIT per PROJECT_CREATE_RATE_WINDOW_S; off by default)',
    ),
    ApiRouteFailure(
      'error',
      'Failed to create project',
      'Any other failure, including a body that is empty or not JSON',
    ),
    ApiAuth('error', 'names-a-user'),
  );

export const ListProjectsEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'List projects, most recently updated first',
      description:
        'Without `limit`, every project (of `userId` when given), streamed. With `limit`, one page and `nextCursor`; a page may also be filtered (`q`), ordered (`sort`, `order`), made lean (`view=summary`) and counted (`includeTotal=true`).',
      operationId: 'listProjects',
    }),
    ApiResponse({
      status: 200,
      description:
        'The projects, with sections, agents, tasks and `_count` (with `view=summary`: sections as `{id, type, status}`, `_count` and `logoThumbnailUrl`)',
      type: ProjectListResponseDto,
      headers: TOTAL_COUNT_HEADER,
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
    }),
    invalidInput(),
    ApiRetryLater(
      'error',
      429,
      TOO_MANY_LISTS_MESSAGE,
      'Without `limit`: the client already runs LIST_CLIENT_LIMIT full lists, and none ended within 10 s',
    ),
    ApiRouteFailure(
      'error',
      'Failed to fetch projects',
      'The list could not be read',
    ),
    ApiAuth('error', 'names-a-user', {
      error: LISTS_BUSY_MESSAGE,
      description:
        'Without `limit`: every list connection of this instance stayed in use for 2 s (PostgreSQL)',
    }),
  );

export const GetProjectEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Fetch one project with all its relations',
      operationId: 'getProject',
    }),
    ApiResponse({
      status: 200,
      description:
        'The project, with sections (each with its assets), agents, tasks (newest first), assets and `_count`',
      type: ProjectDetailResponseDto,
      headers: ETAG_HEADER,
      example: {
        project: {
          ...PROJECT_EXAMPLE,
          sections: [],
          agents: [],
          tasks: [],
          assets: [],
          _count: { tasks: 0, assets: 0 },
        },
      },
    }),
    ApiIfNoneMatch(),
    ApiFailure('error', 404, 'Project not found', 'No project has this id'),
    ApiRouteFailure(
      'error',
      'Failed to fetch project',
      'The project could not be read',
    ),
    ApiAuth('error', 'required'),
  );

export const UpdateProjectEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Change name, description or userId',
      description:
        'Applied as given, field by field: `name` (a string of any length, empty too), `description` (a string of any length, or null), `userId` (a string of at most 255 characters); `id`, `createdAt` and `updatedAt` are ignored, and `updatedAt` is set to now. No NUL and no lone surrogate in any text. Anything else cannot be applied (an unknown id, any other field such as the relations of a fetched project, a wrong JSON type, null for name or userId, a body that is not a JSON object): 500, and nothing changes. The body limit (BODY_LIMIT) bounds the lengths; with PATCH_LENGTH_LIMITS=true name must be 1 to 100 characters and description at most 500, as on create.',
      operationId: 'updateProject',
    }),
    ApiBody({
      type: UpdateProjectBodyDto,
      examples: {
        rename: { summary: 'Rename', value: { name: 'Summer launch' } },
      },
    }),
    ApiResponse({
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
    }),
    ApiBodyFailures('error'),
    ApiRouteFailure(
      'error',
      'Failed to update project',
      'The update failed, for any reason (an unknown id included)',
    ),
    ApiIfMatch('update'),
    ApiAuth('error', 'names-a-user'),
  );

export const DeleteProjectEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Delete a project and its sections, agents, tasks and assets',
      operationId: 'deleteProject',
    }),
    ApiResponse({
      status: 200,
      description: 'Deleted',
      type: DeleteProjectResponseDto,
      example: { success: true },
    }),
    ApiRouteFailure(
      'error',
      'Failed to delete project',
      'The delete failed, for any reason (an unknown id included)',
    ),
    ApiIfMatch('delete'),
    ApiAuth('error', 'required'),
  );
