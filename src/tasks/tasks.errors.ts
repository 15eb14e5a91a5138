import type { ErrorCode } from '../failures/error-codes';
import { ConflictException, NotFoundException } from '@nestjs/common';
import { TooManyRequestsError } from '../failures/retry-later.error';

/** 404 {error:"Task not found"}: no such task in that project. */
export class TaskNotFoundException extends NotFoundException {
  readonly code: ErrorCode = 'task_not_found';

  constructor() {
    super('Task not found');
  }
}

/** 409: a finished task (SUCCEEDED, FAILED, CANCELLED) cannot be cancelled. */
export class TaskFinishedException extends ConflictException {
  readonly code: ErrorCode = 'task_finished';

  constructor(status: string) {
    super(`The task has already finished (${status})`);
  }
}

/**
 * 409: the task would keep more results (a logo task's `count`) than the
 * project has room for under ASSET_MAX_PER_PROJECT; nothing is queued.
 */
export class TaskExceedsAssetLimitException extends ConflictException {
  readonly code: ErrorCode = 'task_exceeds_asset_limit';

  constructor(results: number, room: number) {
    super(
      `The task would keep ${results} assets and the project has room for ${room} more; ask for at most ${room} or delete some first`,
    );
  }
}

/**
 * 429: the project, or its owner, has TASK_MAX_QUEUED_PER_PROJECT /
 * _PER_USER tasks waiting or running; one must finish first.
 */
export class TooManyTasksError extends TooManyRequestsError {
  override readonly code: ErrorCode = 'too_many_tasks';

  constructor(scope: 'project' | 'user', limit: number) {
    super(
      `${scope === 'project' ? 'The project' : 'Its owner'} already has ${limit} unfinished tasks, the most allowed; retry once one finishes`,
      TASK_RETRY_AFTER_SECONDS,
    );
  }
}

/** What a client over a task limit is told to wait. */
export const TASK_RETRY_AFTER_SECONDS = 10;
