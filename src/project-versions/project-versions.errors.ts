import { HttpException, HttpStatus, NotFoundException } from '@nestjs/common';

/** No such project (of that caller): 404 {error:"Project not found"}. */
export class ProjectNotFoundException extends NotFoundException {
  constructor() {
    super('Project not found');
  }
}

/**
 * A change whose If-Match names no current version (or a project that
 * does not exist): 412 {error:"Precondition failed"}, nothing changed.
 */
export class ProjectPreconditionFailedException extends HttpException {
  constructor() {
    super('Precondition failed', HttpStatus.PRECONDITION_FAILED);
  }
}
