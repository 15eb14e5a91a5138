import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiResponse } from '@nestjs/swagger';
import { PROJECT_ID_PARAM } from '../docs/project-id-param.openapi';
import { locationHeader } from '../docs/conditional-headers.openapi';
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
import { CreateRunDto } from './dto/create-run.dto';
import { RunPageResponseDto, RunResponseDto } from './dto/run-responses.dto';
import { RUN_EXAMPLE } from './dto/run.dto';

/**
 * The OpenAPI description of the run routes, one composite decorator per
 * route. They fail with `{error}`, as the task routes do.
 */

const RUN_ID_PARAM = ApiParam({
  name: 'runId',
  description: 'The run id',
  schema: { type: 'string', example: RUN_EXAMPLE.id },
});
const PROJECT_NOT_FOUND = ApiFailure(
  'error',
  404,
  'Project not found',
  "No project with this id (of the caller's, with AUTH_MODE=oidc)",
);
const RUN_NOT_FOUND = ApiFailure(
  'error',
  404,
  'Run not found',
  'No run with this id in this project (or no such project)',
);
const failure = (message: string, description: string) =>
  ApiRouteFailure('error', message, description, {
    unreadableBodyIsClientError: true,
  });

const QUEUED_RUN = {
  ...RUN_EXAMPLE,
  status: 'QUEUED',
  steps: RUN_EXAMPLE.steps.map((step) => ({
    ...step,
    taskId: null,
    status: 'PENDING',
  })),
};

// Long on purpose: one operation's whole OpenAPI description.
export const CreateRunEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary:
        'Take the project through its sections: one task per step, in the order of the graph',
      description:
        "The steps run as tasks, each once the steps it needs have a chosen result (logo → icon-set, brand-kit, graphics; marketing-copy → graphics, wireframe; wireframe → landing-page → site-check → publish, with at most `quote.maxFixes` fixes of the page). With `autoChoose` the run chooses each step's first result itself; without, it waits (WAITING) for PUT …/sections/{sectionId}/selection and goes on by itself. Answers at once, QUEUED, with `quote`: the most model calls it will make. A step that is not listed is not waited for.",
      operationId: 'createRun',
    }),
    PROJECT_ID_PARAM,
    ApiBody({
      type: CreateRunDto,
      examples: {
        all: {
          summary: 'Every step, chosen by the run',
          value: { autoChoose: true },
        },
        some: {
          summary: 'Logo and icons, chosen by a person',
          value: {
            steps: ['logo', 'icon-set'],
            input: {
              logo: { count: 3 },
              'icon-set': { names: ['house', 'search'] },
            },
          },
        },
      },
    }),
    ApiResponse({
      status: 202,
      description: 'The run, QUEUED, with its quote',
      type: RunResponseDto,
      headers: locationHeader('the run', '/api/projects/{id}/runs/{runId}'),
      example: { run: QUEUED_RUN },
    }),
    ApiInvalidInput(
      'error',
      'A validation rule failed: of the body, or of `input.<type>` by that task type\'s rules (paths start with "input", then the type); a step this service has no task type for; an input of a type that is not a step',
      {
        path: ['input', 'logo', 'count'],
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
        'The project\'s owner has RUNS_MAX_CONCURRENT_PER_USER runs QUEUED, RUNNING or WAITING; the body also has `code: "too_many_runs"`',
      type: ErrorResponseDto,
      headers: RETRY_AFTER_HEADER,
      example: {
        error:
          'Its owner already has 2 unfinished runs, the most allowed; retry once one finishes',
        code: 'too_many_runs',
      },
    }),
    failure('Failed to create run', 'The run could not be stored'),
    ApiAuth('error', 'required'),
  );

export const ListRunsEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: "A page of the project's runs, newest first",
      operationId: 'listRuns',
    }),
    PROJECT_ID_PARAM,
    ApiResponse({
      status: 200,
      description: 'One page (`limit`, default 50) and the cursor of the next',
      type: RunPageResponseDto,
      example: { runs: [RUN_EXAMPLE], nextCursor: null },
    }),
    ApiInvalidInput('error', 'An invalid `limit` or `cursor`', {
      path: ['cursor'],
      message: 'Invalid cursor',
      code: 'custom',
    }),
    PROJECT_NOT_FOUND,
    failure('Failed to fetch runs', 'The runs could not be read'),
    ApiAuth('error', 'required'),
  );

export const GetRunEndpoint = () =>
  applyDecorators(
    ApiOperation({ summary: 'One run', operationId: 'getRun' }),
    PROJECT_ID_PARAM,
    RUN_ID_PARAM,
    ApiResponse({
      status: 200,
      description: 'The run',
      type: RunResponseDto,
      example: { run: RUN_EXAMPLE },
    }),
    RUN_NOT_FOUND,
    failure('Failed to fetch run', 'The run could not be read'),
    ApiAuth('error', 'required'),
  );

export const CancelRunEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Cancel a run',
      description:
        'CANCELLED at once, with the task of every step QUEUED or RUNNING (as POST …/tasks/{taskId}/cancel cancels one); steps not started are SKIPPED. Takes no body.',
      operationId: 'cancelRun',
    }),
    PROJECT_ID_PARAM,
    RUN_ID_PARAM,
    ApiResponse({
      status: 200,
      description: 'The run, CANCELLED',
      type: RunResponseDto,
      example: {
        run: {
          ...RUN_EXAMPLE,
          status: 'CANCELLED',
          steps: [
            { ...RUN_EXAMPLE.steps[0] },
            { ...RUN_EXAMPLE.steps[1], status: 'CANCELLED' },
            { ...RUN_EXAMPLE.steps[2], status: 'SKIPPED' },
          ],
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
      'The run has already finished (SUCCEEDED)',
      'The run is SUCCEEDED, FAILED or CANCELLED already (`code: "run_finished"`)',
    ),
    ApiFailure(
      'error',
      404,
      'Run not found',
      'No such run in the project ("Run not found"), or no such project of the caller\'s ("Project not found")',
    ),
    failure('Failed to cancel run', 'The run could not be cancelled'),
    ApiAuth('error', 'required'),
  );
