import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { KeepLogoDto } from '../../assets/dto/keep-logo.dto';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';

export const LOGO_TASK_COUNT_MAX = 4;

/** A logo task's input: the logo request of POST …/logos, and how many candidates. */
export class LogoTaskInputDto extends KeepLogoDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: LOGO_TASK_COUNT_MAX,
    // No `default`: openapi-typescript's default options make a field
    // with one required, and sending it is optional.
    description: 'How many candidate logos to draw (1 when left out).',
    example: 3,
  })
  @Optional()
  @IsInt(Messages.integer())
  @Min(1, Messages.minNumber(1))
  @Max(LOGO_TASK_COUNT_MAX, Messages.maxNumber(LOGO_TASK_COUNT_MAX))
  count?: number;
}
