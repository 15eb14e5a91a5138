import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';
import {
  NO_NUL_PATTERN,
  StorableText,
} from '../../common/validation/storable-text.decorator';
import { CURSOR_EXAMPLE } from './cursor-example';

export const PAGE_LIMIT_MAX = 500;

/**
 * The list's query: the user filter, plus optional pagination: without
 * `limit` the response is the full list. A repeated parameter (an array)
 * is invalid input.
 */
export class ListProjectsQuery {
  @ApiPropertyOptional({
    description: 'Only the projects of this user (exact match)',
    pattern: NO_NUL_PATTERN,
    example: 'user-1',
  })
  @Optional()
  @IsString(Messages.string())
  @StorableText()
  userId?: string;

  /** Page size; the response then carries `nextCursor`. */
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: PAGE_LIMIT_MAX,
    example: 20,
  })
  @Optional()
  @Type(() => Number)
  @IsInt(Messages.integer())
  @Min(1, Messages.minNumber(1))
  @Max(PAGE_LIMIT_MAX, Messages.maxNumber(PAGE_LIMIT_MAX))
  limit?: number;

  /** The `nextCursor` of the previous page (opaque). Needs `limit`. */
  @ApiPropertyOptional({
    example: CURSOR_EXAMPLE,
  })
  @Optional()
  @IsString(Messages.string())
  cursor?: string;
}
