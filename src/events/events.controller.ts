import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { sseSinkOf } from '../common/http/sse-responder';
import {
  AcceptsStreamTicket,
  Authenticated,
} from '../auth/authenticated.decorator';
import type { CallContext } from '../common/call-context';
import { Ctx } from '../common/http/request-context.decorator';
import { CreateTicketDto, StreamTicketDto } from './dto/create-ticket.dto';
import { EventsQuery, ProjectEventsQuery } from './dto/events-query.dto';
import {
  CreateTicketEndpoint,
  ProjectEventsEndpoint,
  UserEventsEndpoint,
} from './events.openapi';
import { EventsService } from './events.service';
import { OptionalBody } from '../platform/body/optional-body.decorator';

/** The Last-Event-ID a reconnecting EventSource sends; it wins over the query. */
const LAST_EVENT_ID = 'last-event-id';

@ApiTags('events')
@Controller('api/events')
@Authenticated()
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @AcceptsStreamTicket()
  @UserEventsEndpoint()
  async watch(
    @Query() query: EventsQuery,
    @Headers(LAST_EVENT_ID) lastEventId: string | undefined,
    @Ctx() context: CallContext,
    @Res() response: Response,
  ): Promise<void> {
    await this.events.watchProjects(
      query.userId,
      lastEventId ?? query.lastEventId,
      context,
      sseSinkOf(response),
    );
  }

  @Post('tickets')
  @HttpCode(HttpStatus.OK)
  @CreateTicketEndpoint()
  @OptionalBody()
  ticket(
    @Body() body: CreateTicketDto,
    @Ctx() context: CallContext,
  ): Promise<StreamTicketDto> {
    return this.events.ticket(body.projectId, context);
  }
}

@ApiTags('events')
@Controller('api/projects/:id/events')
@Authenticated()
export class ProjectEventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @AcceptsStreamTicket()
  @ProjectEventsEndpoint()
  async watch(
    @Param('id') id: string,
    @Query() query: ProjectEventsQuery,
    @Headers(LAST_EVENT_ID) lastEventId: string | undefined,
    @Ctx() context: CallContext,
    @Res() response: Response,
  ): Promise<void> {
    await this.events.watchProject(
      id,
      lastEventId ?? query.lastEventId,
      context,
      sseSinkOf(response),
    );
  }
}
