import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
} from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';
import { RUN_STEP_TYPES, type RunStepType } from '../run-graph';

/**
 * POST /api/projects/{id}/runs. Each `input.<type>` is then validated by
 * that task type's own input rules, as POST …/tasks validates `input`.
 */
export class CreateRunDto {
  @ApiPropertyOptional({
    description:
      "The run chooses each step's first result itself (false: each result the next steps need waits for a person's PUT …/selection). Default false.",
    example: true,
  })
  @Optional()
  @IsBoolean({ message: 'Expected boolean' })
  autoChoose?: boolean;

  @ApiPropertyOptional({
    type: [String],
    enum: RUN_STEP_TYPES,
    description:
      "The steps to run (unique, at least one); every step this service has a task type for when left out. A step's needs that are not listed are not waited for.",
    example: ['logo', 'marketing-copy', 'wireframe', 'landing-page'],
  })
  @Optional()
  @IsArray(Messages.array())
  @ArrayMinSize(1, Messages.minItems(1))
  @ArrayUnique({ message: 'Every step must be listed once' })
  @IsIn(RUN_STEP_TYPES, { ...Messages.oneOf(RUN_STEP_TYPES), each: true })
  steps?: RunStepType[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'object' },
    description:
      "Each step's input by its type, as POST …/tasks takes it (logo's companyName defaults to the project's name, its style to modern and its colours to a neutral palette). publish: {force?} also decides whether the run publishes a page the site check still finds errors in.",
    example: { logo: { count: 2 }, 'icon-set': { names: ['house', 'search'] } },
  })
  @Optional()
  @IsObject(Messages.object())
  input?: Record<string, unknown>;
}
