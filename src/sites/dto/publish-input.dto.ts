import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { Optional } from '../../common/validation/optional.decorator';

/**
 * A publish task's input. Without `force` the chosen landing page's newest
 * site check report must exist and have no errors (409 otherwise).
 */
export class PublishInputDto {
  @ApiPropertyOptional({
    description:
      "Publish even when the chosen page's newest site check found errors, or when it was never checked. The deployment records the report it went past (reportId, null when there was none).",
    example: false,
  })
  @Optional()
  @IsBoolean({ message: 'Expected boolean' })
  force?: boolean;
}
