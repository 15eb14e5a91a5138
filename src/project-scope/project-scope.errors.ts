import type { ErrorCode } from '../failures/error-codes';
import { HttpException, HttpStatus, NotFoundException } from '@nestjs/common';

/** No such project (of that caller): 404 {error:"Project not found"}. */
export class ProjectNotFoundException extends NotFoundException {
  readonly code: ErrorCode = 'project_not_found';

  constructor() {
    super('Project not found');
  }
}

/**
 * A change whose If-Match names no current version (or a project that
 * does not exist): 412 {error:"Precondition failed"}, nothing changed.
 */
export class ProjectPreconditionFailedException extends HttpException {
  readonly code: ErrorCode = 'precondition_failed';

  constructor() {
    super('Precondition failed', HttpStatus.PRECONDITION_FAILED);
  }
}
