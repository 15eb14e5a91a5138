import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Authenticated } from '../auth/authenticated.decorator';
import { sendJsonReply } from '../common/http/json-reply';
import { FailureMessage } from '../failures/failure-message.decorator';
import { Bodiless } from '../platform/body/bodiless.decorator';
import type { RequestContext } from '../common/http/request-context';
import { Ctx } from '../common/http/request-context.decorator';
import type { IdempotentKey } from '../idempotency/idempotency-key.decorator';
import { IdempotencyKey } from '../idempotency/idempotency-key.decorator';
import { CreateTaskDto } from './dto/create-task.dto';
import { ListTasksQuery } from './dto/list-tasks-query.dto';
import { taskReply, tasksPageReply } from './task-replies';
import { TasksService } from './tasks.service';

@ApiTags('tasks')
@Controller('api/projects/:id/tasks')
@Authenticated()
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  @Post()
  @FailureMessage('Failed to create task', {
    unreadableBodyIsClientError: true,
  })
  async create(
    @Param('id') id: string,
    @Body() request: CreateTaskDto,
    @IdempotencyKey({ operation: 'POST /api/projects/{id}/tasks' })
    key: IdempotentKey | undefined,
    @Ctx() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ) {
    return sendJsonReply(
      response,
      await this.tasks.create(id, request, context, key),
    );
  }

  @Get()
  @FailureMessage('Failed to fetch tasks', {
    unreadableBodyIsClientError: true,
  })
  async list(
    @Param('id') id: string,
    @Query() query: ListTasksQuery,
    @Ctx() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ) {
    return sendJsonReply(
      response,
      tasksPageReply(await this.tasks.page(id, query, context)),
    );
  }

  @Get(':taskId')
  @FailureMessage('Failed to fetch task', { unreadableBodyIsClientError: true })
  async get(
    @Param('id') id: string,
    @Param('taskId') taskId: string,
    @Ctx() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ) {
    return sendJsonReply(
      response,
      taskReply(await this.tasks.get(id, taskId, context)),
    );
  }

  @Post(':taskId/cancel')
  @FailureMessage('Failed to cancel task', {
    unreadableBodyIsClientError: true,
  })
  @HttpCode(HttpStatus.OK)
  @Bodiless()
  async cancel(
    @Param('id') id: string,
    @Param('taskId') taskId: string,
    @Ctx() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ) {
    return sendJsonReply(
      response,
      taskReply(await this.tasks.cancel(id, taskId, context)),
    );
  }
}
