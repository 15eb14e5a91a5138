import { HttpStatus } from '@nestjs/common';
import { Reply } from '../common/http/reply';
import type { TaskDto } from './dto/task.dto';

/** Where a task is read. */
export const taskLocation = (task: TaskDto): string =>
  `/api/projects/${encodeURIComponent(task.projectId)}/tasks/${encodeURIComponent(task.id)}`;

/**
 * 202 {task} with its Location: the work runs in the background. Also the
 * answer an Idempotency-Key stores.
 */
export const acceptedTaskReply = (task: TaskDto): Reply =>
  new Reply(
    HttpStatus.ACCEPTED,
    { Location: taskLocation(task) },
    JSON.stringify({ task }),
  );

/** 200 {task}. */
export const taskReply = (task: TaskDto): Reply =>
  new Reply(HttpStatus.OK, {}, JSON.stringify({ task }));

/** 200 {tasks, nextCursor}. */
export const tasksPageReply = (page: {
  tasks: TaskDto[];
  nextCursor: string | null;
}): Reply => new Reply(HttpStatus.OK, {}, JSON.stringify(page));
