import { ConflictException, NotFoundException } from '@nestjs/common';
import type { ErrorCode } from '../failures/error-codes';
import { TooManyRequestsError } from '../failures/retry-later.error';

/** 404: no such run in that project. */
export class RunNotFoundException extends NotFoundException {
  readonly code: ErrorCode = 'run_not_found';

  constructor() {
    super('Run not found');
  }
}

/** 409: a finished run (SUCCEEDED, FAILED, CANCELLED) cannot be cancelled. */
export class RunFinishedException extends ConflictException {
  readonly code: ErrorCode = 'run_finished';

  constructor(status: string) {
    super(`The run has already finished (${status})`);
  }
}

/** What a client over the run limit is told to wait. */
export const RUN_RETRY_AFTER_SECONDS = 30;

/** 429: the project's owner has RUNS_MAX_CONCURRENT_PER_USER unfinished runs. */
export class TooManyRunsError extends TooManyRequestsError {
  override readonly code: ErrorCode = 'too_many_runs';

  constructor(limit: number) {
    super(
      `Its owner already has ${limit} unfinished runs, the most allowed; retry once one finishes`,
      RUN_RETRY_AFTER_SECONDS,
    );
  }
}
