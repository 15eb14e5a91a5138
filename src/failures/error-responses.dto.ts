import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UNREADABLE_BODY_MESSAGE } from './unreadable-body.error';
import { ERROR_CODE_LIST, type ErrorCode } from './error-codes';

const CODE_DESCRIPTION =
  'A stable, machine-readable cause beside the text (docs/api.md, "Error codes"); added beside the contract\'s fields, never in place of one';

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

  @ApiProperty({
    description: CODE_DESCRIPTION,
    enum: ERROR_CODE_LIST,
    enumName: 'ErrorCode',
    example: 'project_not_found',
  })
  code: ErrorCode;
}

/** Project routes: `{error:"Invalid input", details}`. */
export class ValidationErrorResponseDto {
  @ApiProperty({ example: 'Invalid input', enum: ['Invalid input'] })
  error: string;

  @ApiProperty({ type: [ValidationIssueDto] })
  details: ValidationIssueDto[];

  @ApiProperty({
    description: CODE_DESCRIPTION,
    enum: ['invalid_input'],
    example: 'invalid_input',
  })
  code: 'invalid_input';
}

/**
 * Routes that read a body and refuse one that is not JSON as the client's
 * mistake: `{error:"Invalid input", details}`, or
 * `{error:"Request body is not valid JSON"}`.
 */
export class BodyValidationErrorResponseDto {
  @ApiProperty({
    example: 'Invalid input',
    enum: ['Invalid input', UNREADABLE_BODY_MESSAGE],
  })
  error: string;

  @ApiPropertyOptional({
    type: [ValidationIssueDto],
    description: 'With "Invalid input": one issue per failed rule',
  })
  details?: ValidationIssueDto[];

  @ApiProperty({
    description: `${CODE_DESCRIPTION}: invalid_input, or invalid_json for a body that is not JSON`,
    enum: ['invalid_input', 'invalid_json'],
    example: 'invalid_input',
  })
  code: 'invalid_input' | 'invalid_json';
}

/**
 * A route that also takes an uploaded file: the validation failure, or
 * `{error, code}` refusing the upload itself (a form without its file
 * part, too many pixels, an SVG that cannot be made safe).
 */
export class UploadRefusalResponseDto {
  @ApiProperty({ example: 'Invalid input' })
  error: string;

  @ApiPropertyOptional({
    type: [ValidationIssueDto],
    description: 'With "Invalid input": one issue per failed rule',
  })
  details?: ValidationIssueDto[];

  @ApiProperty({
    description: `${CODE_DESCRIPTION}: invalid_input, or for an upload invalid_upload, too_many_pixels or svg_unsafe`,
    enum: ['invalid_input', 'invalid_upload', 'too_many_pixels', 'svg_unsafe'],
    example: 'invalid_input',
  })
  code: 'invalid_input' | 'invalid_upload' | 'too_many_pixels' | 'svg_unsafe';
}

/** The logo route: `{success:false, error}`. */
export class LogoErrorResponseDto {
  @ApiProperty({ example: false, enum: [false] })
  success: false;

  @ApiProperty({ example: 'Failed to generate logo' })
  error: string;

  @ApiProperty({
    description: `${CODE_DESCRIPTION}. A refusal of the image provider's safety system is moderation_blocked; an outage is upstream_failed, upstream_timeout or upstream_unreachable`,
    enum: ERROR_CODE_LIST,
    enumName: 'ErrorCode',
    example: 'upstream_failed',
  })
  code: ErrorCode;
}

/** The logo route: `{success:false, error:"Invalid input", details}`. */
export class LogoValidationErrorResponseDto extends LogoErrorResponseDto {
  @ApiProperty({ example: 'Invalid input', enum: ['Invalid input'] })
  declare error: string;

  @ApiProperty({ type: [ValidationIssueDto] })
  details: ValidationIssueDto[];

  @ApiProperty({
    description: CODE_DESCRIPTION,
    enum: ['invalid_input'],
    example: 'invalid_input',
  })
  declare code: ErrorCode;
}

/** `Retry-After` of a 429 or 503. */
export const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds to wait before sending the request again',
    schema: { type: 'integer', example: 10 },
  },
};
