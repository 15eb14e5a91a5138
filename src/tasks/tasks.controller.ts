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
import { OptionalBody } from '../platform/body/optional-body.decorator';
import type { CallContext } from '../common/call-context';
import { Ctx } from '../common/http/request-context.decorator';
import type { IdempotentRequest } from '../idempotency/idempotency-key.decorator';
import { replyOrReplay } from '../idempotency/replayed';
import type { TaskDto } from './dto/task.dto';
import { IdempotencyKey } from '../idempotency/idempotency-key.decorator';
import { CreateTaskDto } from './dto/create-task.dto';
import { ListTasksQuery } from './dto/list-tasks-query.dto';
import { acceptedTaskReply, taskReply, tasksPageReply } from './task-replies';
import { TasksService } from './tasks.service';
import {
  CancelTaskEndpoint,
  CreateTaskEndpoint,
  GetTaskEndpoint,
  ListTasksEndpoint,
} from './tasks.openapi';

@ApiTags('tasks')
@Controller('api/projects/:id/tasks')
@Authenticated()
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  @Post()
  @HttpCode(HttpStatus.ACCEPTED)
  @CreateTaskEndpoint()
  async create(
    @Param('id') id: string,
    @Body() request: CreateTaskDto,
    @IdempotencyKey({
      operation: 'POST /api/projects/{id}/tasks',
      answerOf: acceptedTaskReply,
    })
    key: IdempotentRequest<TaskDto> | undefined,
    @Ctx() context: CallContext,
  ) {
    return replyOrReplay(
      await this.tasks.create(id, request, context, key),
      acceptedTaskReply,
    );
  }

  @Get()
  @ListTasksEndpoint()
  async list(
    @Param('id') id: string,
    @Query() query: ListTasksQuery,
    @Ctx() context: CallContext,
  ) {
    return tasksPageReply(await this.tasks.page(id, query, context));
  }

  @Get(':taskId')
  @GetTaskEndpoint()
  async get(
    @Param('id') id: string,
    @Param('taskId') taskId: string,
    @Ctx() context: CallContext,
  ) {
    return taskReply(await this.tasks.get(id, taskId, context));
  }

  @Post(':taskId/cancel')
  @CancelTaskEndpoint()
  @HttpCode(HttpStatus.OK)
  @OptionalBody()
  async cancel(
    @Param('id') id: string,
    @Param('taskId') taskId: string,
    @Ctx() context: CallContext,
  ) {
    return taskReply(await this.tasks.cancel(id, taskId, context));
  }
}
