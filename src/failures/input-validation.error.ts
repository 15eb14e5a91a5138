import type { ErrorCode } from './error-codes';
import { BadRequestException } from '@nestjs/common';
import type { ValidationIssue } from './validation-issue';

/** Input that breaks a documented rule: 400 {error:"Invalid input", details}. */
export class InputValidationException extends BadRequestException {
  readonly code: ErrorCode = 'invalid_input';

  constructor(readonly issues: ValidationIssue[]) {
    super('Invalid input');
  }
}
