import { applyDecorators } from '@nestjs/common';
import { PROJECT_ID_PARAM } from '../docs/project-id-param.openapi';
import {
  ApiBody,
  ApiExtraModels,
  ApiHeader,
  ApiOperation,
  ApiProduces,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  ErrorResponseDto,
  RETRY_AFTER_HEADER,
} from '../failures/error-responses.dto';
import {
  ApiAuth,
  ApiBodyFailures,
  ApiFailure,
  ApiInvalidInput,
  ApiRetryLater,
  ApiRouteFailure,
} from '../failures/failure-responses.openapi';
import { TASK_EXAMPLE } from '../tasks/dto/task.dto';
import { CreateTicketDto, StreamTicketDto } from './dto/create-ticket.dto';
import {
  CHANGE_EVENT_DTOS,
  CHANGE_EVENT_SCHEMA,
  ResetEventDto,
  STREAM_EVENT_SCHEMA,
} from './dto/change-event.dto';

const STREAM_DESCRIPTION =
  'A text/event-stream (server-sent events). Each change is one event: `id:` (send it back as the Last-Event-ID header, or ?lastEventId=, to resume exactly after it), `event:` (its type) and `data:` (its JSON: a StreamEventDto, one schema per `type`; the schema of the response is that item, as OpenAPI 3.0 has no way to name the items of a stream). A `reset` event (ResetEventDto) means the id sent is too old or unknown: refetch, then carry on. A comment line every EVENTS_HEARTBEAT_S keeps proxies from closing it; `retry:` advises the reconnection delay. The stream ends when the token (or ticket) expires, and at shutdown (with a short `retry:`, to reconnect to another replica).';

/** One item of a stream: the JSON of a `data:` line. */
const STREAM_ITEM_EXAMPLE = {
  id: '1042',
  type: 'task.updated',
  projectId: TASK_EXAMPLE.projectId,
  userId: 'user-1',
  at: '2026-11-27T10:15:30.123Z',
  data: {
    taskId: TASK_EXAMPLE.id,
    type: 'logo',
    status: 'RUNNING',
    attempts: 1,
    progress: { done: 0, total: 1 },
    task: {
      ...TASK_EXAMPLE,
      status: 'RUNNING',
      assetIds: [],
      progress: { done: 0, total: 1 },
      finishedAt: null,
    },
    etag: '"7"',
  },
};

const streamResponse = () =>
  applyDecorators(
    ApiExtraModels(
      ...Object.values(CHANGE_EVENT_DTOS).map((dto) => dto()),
      ResetEventDto,
    ),
    ApiProduces('text/event-stream'),
    ApiHeader({
      name: 'Last-Event-ID',
      required: false,
      description:
        'Resume after this event: what an EventSource sends when it reconnects (wins over ?lastEventId=)',
      schema: { type: 'string', example: '1042' },
    }),
    ApiResponse({
      status: 200,
      description: STREAM_DESCRIPTION,
      content: {
        'text/event-stream': {
          // The JSON of one `data:` line: what generators that read
          // server-sent events (@hey-api/openapi-ts) type each item as.
          schema: {
            $ref: `#/components/schemas/${STREAM_EVENT_SCHEMA}`,
          },
          example: STREAM_ITEM_EXAMPLE,
          // The events' JSON, for readers that look for it here.
          'x-event-schemas': {
            change: { $ref: `#/components/schemas/${CHANGE_EVENT_SCHEMA}` },
            reset: { $ref: getSchemaPath(ResetEventDto) },
          },
        } as never,
      },
    }),
    ApiInvalidInput('error', 'An invalid query parameter', {
      path: ['lastEventId'],
      message: 'lastEventId must be shorter than or equal to 1024 characters',
      code: 'too_big',
    }),
    ApiResponse({
      status: 429,
      description:
        'This client already has EVENTS_CLIENT_LIMIT streams open; `code: "too_many_streams"`',
      type: ErrorResponseDto,
      headers: RETRY_AFTER_HEADER,
      example: {
        error:
          'This client already has 10 live-change streams open, the most allowed; close one first',
        code: 'too_many_streams',
      },
    }),
    ApiRetryLater(
      'error',
      503,
      'This instance has no room for another live-change stream; retry (another replica may have room)',
      'This instance holds EVENTS_INSTANCE_LIMIT streams, or is shutting down; another replica may take the stream',
    ),
    ApiRouteFailure(
      'error',
      'Failed to open event stream',
      'The change log could not be read',
    ),
    ApiAuth('error', 'required'),
  );

export const UserEventsEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: "Live changes of the caller's projects",
      description:
        "Every change to the caller's projects (an admin's: everyone's, or ?userId='s; without auth: ?userId='s, or all) as it is committed, on any replica. With AUTH_MODE=oidc send Authorization (a fetch-based client), or open the URL of a ticket (POST /api/events/tickets) with EventSource.",
      operationId: 'watchProjects',
    }),
    streamResponse(),
    ApiFailure(
      'error',
      403,
      'Forbidden',
      'With AUTH_MODE=oidc: ?userId= names another user (and the caller is no admin)',
    ),
  );

export const ProjectEventsEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Live changes of one project',
      description:
        'Every change to the project, as it is committed, on any replica; the stream ends after `project.deleted`.',
      operationId: 'watchProject',
    }),
    PROJECT_ID_PARAM,
    streamResponse(),
    ApiFailure(
      'error',
      404,
      'Project not found',
      "No project with this id (of the caller's, with AUTH_MODE=oidc)",
    ),
  );

export const CreateTicketEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'A stream URL for EventSource',
      description:
        "EventSource cannot send Authorization: this answers the stream's URL with a ticket for the caller in its query, usable for one minute to open the stream, which then lasts until the caller's token expires. Without authentication (AUTH_MODE=none), the plain URL. The body is optional: a request without one (and without a Content-Type) is the caller's stream of all its projects, as `{}`.",
      operationId: 'createStreamTicket',
    }),
    ApiBody({ type: CreateTicketDto, required: false }),
    ApiResponse({
      status: 200,
      description: 'The URL to open, and when its ticket expires',
      type: StreamTicketDto,
      example: {
        url: 'https://api.example.com/api/events?ticket=eyJ1Ijoi...',
        expiresAt: '2026-11-27T10:16:30.000Z',
      },
    }),
    ApiInvalidInput(
      'error',
      'An invalid body (or one that is not JSON)',
      {
        path: ['projectId'],
        message: 'projectId must be a string',
        code: 'invalid_type',
      },
      { unreadableBody: true },
    ),
    ApiBodyFailures('error', { optionalBody: true }),
    ApiFailure(
      'error',
      404,
      'Project not found',
      "`projectId` names no project (of the caller's, with AUTH_MODE=oidc)",
    ),
    ApiRouteFailure(
      'error',
      'Failed to create stream ticket',
      'The project could not be read',
      {
        unreadableBodyIsClientError: true,
      },
    ),
    ApiAuth('error', 'required'),
  );
