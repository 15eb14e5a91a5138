import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The error bodies of every route, as OpenAPI schemas. Types for the document
 * only: the filter builds the real bodies (describeFailure).
 */

export class ValidationIssueDto {
  @ApiProperty({
    description:
      'Where the rule failed: field names and array indexes, or the name of a request header (Idempotency-Key)',
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    example: ['name'],
  })
  path: (string | number)[];

  @ApiProperty({ example: 'String must contain at most 100 character(s)' })
  message: string;

  @ApiProperty({
    description:
      "Zod's issue code: invalid_type (missing or wrong JSON type), too_small, too_big, invalid_enum_value, invalid_string (a NUL character), custom (a cursor this service did not issue)",
    example: 'too_big',
    enum: [
      'invalid_type',
      'too_small',
      'too_big',
      'invalid_enum_value',
      'invalid_string',
      'custom',
    ],
  })
  code: string;
}

/** Project routes: `{error}`. */
export class ErrorResponseDto {
  @ApiProperty({ example: 'Failed to fetch project' })
  error: string;

  @ApiPropertyOptional({
    description:
      'A stable cause beside the text, on some 503s and 429s: asset_storage_unavailable (the bucket of kept logos failed or did not answer in time), too_many_tasks (the project or its owner has the most unfinished tasks allowed)',
    enum: ['asset_storage_unavailable', 'too_many_tasks'],
  })
  code?: string;
}

/** A route that reads a body which is not JSON as the client's mistake: 400. */
export class UnreadableBodyResponseDto {
  @ApiProperty({
    example: 'Request body is not valid JSON',
    enum: ['Request body is not valid JSON'],
  })
  error: string;
}

/**
 * A route that reads a body which is not JSON as the client's mistake:
 * its 400 is `{error:"Invalid input", details}` or, for such a body,
 * `{error:"Request body is not valid JSON"}`.
 */
export class ValidationOrUnreadableBodyResponseDto {
  @ApiProperty({
    example: 'Invalid input',
    enum: ['Invalid input', 'Request body is not valid JSON'],
  })
  error: string;

  @ApiPropertyOptional({
    type: [ValidationIssueDto],
    description: 'The issues, one per failed rule (with "Invalid input")',
  })
  details?: ValidationIssueDto[];
}

/** Project routes: `{error:"Invalid input", details}`. */
export class ValidationErrorResponseDto {
  @ApiProperty({ example: 'Invalid input', enum: ['Invalid input'] })
  error: string;

  @ApiProperty({ type: [ValidationIssueDto] })
  details: ValidationIssueDto[];
}

/** The logo route: `{success:false, error}`. */
export class LogoErrorResponseDto {
  @ApiProperty({ example: false, enum: [false] })
  success: false;

  @ApiProperty({ example: 'Failed to generate logo' })
  error: string;
}

/** The logo route: `{success:false, error:"Invalid input", details}`. */
export class LogoValidationErrorResponseDto extends LogoErrorResponseDto {
  @ApiProperty({ example: 'Invalid input', enum: ['Invalid input'] })
  declare error: string;

  @ApiProperty({ type: [ValidationIssueDto] })
  details: ValidationIssueDto[];
}

/** `Retry-After` of a 429 or 503. */
export const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds to wait before sending the request again',
    schema: { type: 'integer', example: 10 },
  },
};
