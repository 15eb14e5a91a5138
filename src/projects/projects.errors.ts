import type { ErrorCode } from '../failures/error-codes';
import { PublicError } from '../failures/public.error';

/**
 * A PATCH or DELETE that cannot be carried out, an unknown id included.
 * PATCH and DELETE answer every such failure with 500 and the route's text.
 */
export class ProjectChangeRejectedError extends PublicError {
  constructor(
    message: string,
    logDetail?: string,
    code: ErrorCode = 'invalid_input',
  ) {
    super(message, logDetail, code);
  }
}
