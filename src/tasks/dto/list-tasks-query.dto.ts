import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';

export const TASK_PAGE_DEFAULT = 50;
export const TASK_PAGE_MAX = 500;

/** A page of a project's tasks, newest first: always paged, so never unbounded. */
export class ListTasksQuery {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: TASK_PAGE_MAX,
    default: TASK_PAGE_DEFAULT,
    example: 20,
  })
  @Optional()
  @Type(() => Number)
  @IsInt(Messages.integer())
  @Min(1, Messages.minNumber(1))
  @Max(TASK_PAGE_MAX, Messages.maxNumber(TASK_PAGE_MAX))
  limit?: number;

  /** The `nextCursor` of the previous page (opaque). */
  @ApiPropertyOptional({
    example:
      'WyIyMDI2LTExLTIyVDAzOjM5OjA5LjMyMVoiLCIwMTlhYThmNC0xYzJkLTdlM2YtOGE0Yi01YzZkN2U4ZjlhMGIiXQ',
  })
  @Optional()
  @IsString(Messages.string())
  cursor?: string;
}
