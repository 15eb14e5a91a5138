import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';
import { StorableText } from '../../common/validation/storable-text.decorator';

export const PAGE_LIMIT_MAX = 500;

/**
 * SPEC 4.2 query, plus optional pagination (an addition): without `limit`
 * the response is exactly SPEC's full list. A repeated parameter (an array)
 * is invalid input.
 */
export class ListProjectsQuery {
  @ApiPropertyOptional({
    description: 'Only the projects of this user (exact match)',
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
    example: 'WyIyMDI2LTExLTIyVDAzOjM5OjA5LjMyMVoiLCIwMWEy',
  })
  @Optional()
  @IsString(Messages.string())
  cursor?: string;
}
