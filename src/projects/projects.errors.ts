import { HttpException, HttpStatus, NotFoundException } from '@nestjs/common';
import { PublicError } from '../failures/public.error';

/** GET of an unknown id: 404 {error:"Project not found"}. */
export class ProjectNotFoundException extends NotFoundException {
  constructor() {
    super('Project not found');
  }
}

/**
 * A PATCH or DELETE that cannot be carried out, an unknown id included.
 * PATCH and DELETE answer every such failure with 500 and the route's text.
 */
export class ProjectChangeRejectedError extends PublicError {}

/**
 * A PATCH or DELETE whose If-Match names no current version (or a project
 * that does not exist): 412 {error:"Precondition failed"}, nothing changed.
 */
export class ProjectPreconditionFailedException extends HttpException {
  constructor() {
    super('Precondition failed', HttpStatus.PRECONDITION_FAILED);
  }
}
