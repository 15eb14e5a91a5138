import { NotFoundException } from '@nestjs/common';
import { PublicError } from '../common/errors/public-error';

/** SPEC 4.3: 404 {error:"Project not found"}. */
export class ProjectNotFoundException extends NotFoundException {
  constructor() {
    super('Project not found');
  }
}

/**
 * A PATCH or DELETE that cannot be carried out, an unknown id included.
 * SPEC 4.4 and 4.5 answer every such failure with 500 and the route's text.
 */
export class ProjectChangeRejectedError extends PublicError {}
