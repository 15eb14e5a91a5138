import { applyDecorators } from '@nestjs/common';
import { PROJECT_ID_PARAM } from '../docs/project-id-param.openapi';
import {
  ApiBody,
  ApiExtraModels,
  ApiOperation,
  ApiParam,
  ApiResponse,
} from '@nestjs/swagger';
import {
  ApiIdempotencyKey,
  locationHeader,
  REPLAYED_HEADER,
} from '../docs/conditional-headers.openapi';
import {
  ErrorResponseDto,
  RETRY_AFTER_HEADER,
} from '../failures/error-responses.dto';
import {
  ApiAuth,
  ApiBodyFailures,
  ApiFailure,
  ApiInvalidInput,
  ApiRouteFailure,
} from '../failures/failure-responses.openapi';
import { UNREADABLE_BODY_MESSAGE } from '../failures/unreadable-body.error';
import { CreateTaskDto } from './dto/create-task.dto';
import { TaskConflictResponseDto } from '../sites/dto/site-check-refusal.dto';
import { CREATE_TASK_DTOS } from './dto/create-task-request.dto';
import { TaskPageResponseDto, TaskResponseDto } from './dto/task-responses.dto';
import { TASK_EXAMPLE } from './dto/task.dto';

/**
 * The OpenAPI description of the task routes, one composite decorator per
 * route. They fail with `{error}`, as the project routes do; a body that
 * is not JSON is their 400.
 */

const TASK_ID_PARAM = ApiParam({
  name: 'taskId',
  description: 'The task id',
  schema: { type: 'string', example: TASK_EXAMPLE.id },
});
const PROJECT_NOT_FOUND = ApiFailure(
  'error',
  404,
  'Project not found',
  "No project with this id (of the caller's, with AUTH_MODE=oidc)",
);
const TASK_NOT_FOUND = ApiFailure(
  'error',
  404,
  'Task not found',
  'No task with this id in this project (or no such project)',
);
const failure = (message: string, description: string) =>
  ApiRouteFailure('error', message, description, {
    unreadableBodyIsClientError: true,
  });

// Long on purpose: one operation's whole OpenAPI description (body,
// every answer and header), declared in one place as a list.
export const CreateTaskEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary:
        "Run a task: one of the project's agents works in the background",
      description:
        'logo: the DESIGN agent draws `count` (1-4) candidate logos into LOGO; marketing-copy: the MARKETING agent writes {tagline, description, posts} into MARKETING; landing-page: the CODE agent writes a self-contained HTML page into CODE (served sandboxed); icon-set: the DESIGN agent makes one 24×24 SVG icon per name into ICONS (Lucide’s restyled to the brand, the others drawn by a model, every one rebuilt from an allow-list and served sandboxed). Answers at once with the task QUEUED; poll its Location until SUCCEEDED, FAILED or CANCELLED. The task is queued in the transaction that stores it: once answered it is never lost.',
      operationId: 'createTask',
    }),
    PROJECT_ID_PARAM,
    ApiExtraModels(...Object.values(CREATE_TASK_DTOS).map((dto) => dto())),
    ApiBody({
      // Described as the union CREATE_TASK_SCHEMA names (one schema per type).
      type: CreateTaskDto,
      examples: {
        logo: {
          summary: 'Three logo candidates',
          value: {
            type: 'logo',
            input: {
              companyName: 'Acme',
              style: 'modern',
              colors: ['#0044ff', 'white'],
              count: 3,
            },
          },
        },
        copy: {
          summary: 'Marketing copy',
          value: { type: 'marketing-copy', input: { tone: 'friendly' } },
        },
        page: { summary: 'A landing page', value: { type: 'landing-page' } },
      },
    }),
    ApiResponse({
      status: 202,
      description:
        'The task, QUEUED (or, with `Idempotent-Replayed: true`, the answer first given for this Idempotency-Key)',
      type: TaskResponseDto,
      headers: {
        ...locationHeader('the task', '/api/projects/{id}/tasks/{taskId}'),
        ...REPLAYED_HEADER,
      },
      example: {
        task: {
          ...TASK_EXAMPLE,
          status: 'QUEUED',
          assetIds: [],
          attempts: 0,
          startedAt: null,
          finishedAt: null,
        },
      },
    }),
    ApiInvalidInput(
      'error',
      'A validation rule failed: of the body, or of `input` by the type\'s rules (paths start with "input"); or the body is not JSON (`{error:"Request body is not valid JSON"}`, without details)',
      {
        path: ['input', 'count'],
        message: 'Number must be less than or equal to 4',
        code: 'too_big',
      },
      { unreadableBody: true },
    ),
    ApiBodyFailures('error'),
    PROJECT_NOT_FOUND,
    ApiResponse({
      status: 429,
      description:
        'The project has TASK_MAX_QUEUED_PER_PROJECT (or its owner TASK_MAX_QUEUED_PER_USER: "Its owner already has …") tasks queued or running; the body also has `code: "too_many_tasks"`',
      type: ErrorResponseDto,
      headers: RETRY_AFTER_HEADER,
      example: {
        error:
          'The project already has 10 unfinished tasks, the most allowed; retry once one finishes',
        code: 'too_many_tasks',
      },
    }),
    failure('Failed to create task', 'The task could not be stored'),
    ApiIdempotencyKey('error'),
    ApiResponse({
      status: 409,
      description:
        'The project already holds ASSET_MAX_PER_PROJECT assets (`code: "asset_limit_reached"`); or it has room for fewer than the results the task keeps, a logo task\'s `count` ("The task would keep 3 assets and the project has room for 2 more; …", `code: "task_exceeds_asset_limit"`; brand kit files are not counted); nothing was queued, and an Idempotency-Key is free again. Or the first request with this Idempotency-Key is still being processed (with Retry-After). A `publish` task: no landing page chosen in CODE (`code: "nothing_chosen"`), the chosen page never checked (`code: "site_not_checked"`), or its newest site check found errors (`code: "site_check_failed"`, the body\'s `report` carries it, its first 50 findings); `force: true` publishes past the last two',
      headers: RETRY_AFTER_HEADER,
      type: TaskConflictResponseDto,
      example: {
        error:
          'The site check found errors in the chosen landing page; fix them, or publish with force',
        report: {
          assetId: '019aa8f3-0b4e-7a21-8c3d-5e6f7a8b9c0d',
          passed: false,
          score: 62,
          counts: { error: 1, warning: 1, info: 0 },
          findings: [
            {
              rule: 'image-alt',
              severity: 'error',
              message: 'An image has no alt text',
              selector: 'img',
            },
          ],
        },
        code: 'site_check_failed',
      },
    }),
    ApiAuth('error', 'required'),
  );

export const ListTasksEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: "A page of the project's tasks, newest first",
      operationId: 'listTasks',
    }),
    PROJECT_ID_PARAM,
    ApiResponse({
      status: 200,
      description: 'One page (`limit`, default 50) and the cursor of the next',
      type: TaskPageResponseDto,
      example: { tasks: [TASK_EXAMPLE], nextCursor: null },
    }),
    ApiInvalidInput('error', 'An invalid `limit` or `cursor`', {
      path: ['cursor'],
      message: 'Invalid cursor',
      code: 'custom',
    }),
    PROJECT_NOT_FOUND,
    failure('Failed to fetch tasks', 'The tasks could not be read'),
    ApiAuth('error', 'required'),
  );

export const GetTaskEndpoint = () =>
  applyDecorators(
    ApiOperation({ summary: 'One task', operationId: 'getTask' }),
    PROJECT_ID_PARAM,
    TASK_ID_PARAM,
    ApiResponse({
      status: 200,
      description: 'The task',
      type: TaskResponseDto,
      example: { task: TASK_EXAMPLE },
    }),
    TASK_NOT_FOUND,
    failure('Failed to fetch task', 'The task could not be read'),
    ApiAuth('error', 'required'),
  );

export const CancelTaskEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Cancel a task',
      description:
        "CANCELLED at once; a running task's worker (on any replica) closes its upstream call within TASK_CANCEL_CHECK_MS and keeps nothing more. The results it kept before the cancel (paid for) stay, listed in `assetIds` and counted in `progress`. Takes no body: send none, and no Content-Type (also with CORS_ORIGINS set). A body that is sent anyway is read as JSON and ignored; with CORS_ORIGINS set it must then be sent as `application/json` (else 415).",
      operationId: 'cancelTask',
    }),
    PROJECT_ID_PARAM,
    TASK_ID_PARAM,
    ApiResponse({
      status: 200,
      description: 'The task, CANCELLED',
      type: TaskResponseDto,
      example: {
        task: {
          ...TASK_EXAMPLE,
          status: 'CANCELLED',
          assetIds: [],
          progress: { done: 0, total: 1 },
        },
      },
    }),
    ApiFailure(
      'error',
      400,
      UNREADABLE_BODY_MESSAGE,
      'A body was sent, and it is not JSON (an empty body is no body)',
    ),
    ApiBodyFailures('error', { optionalBody: true }),
    ApiFailure(
      'error',
      409,
      'The task has already finished (SUCCEEDED)',
      'The task is SUCCEEDED, FAILED or CANCELLED already',
    ),
    ApiFailure(
      'error',
      404,
      'Task not found',
      'No such task in the project ("Task not found"), or no such project of the caller\'s ("Project not found")',
    ),
    failure('Failed to cancel task', 'The task could not be cancelled'),
    ApiAuth('error', 'required'),
  );
