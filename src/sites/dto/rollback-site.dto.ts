import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsInt, Min } from 'class-validator';
import { Messages } from '../../common/validation/messages';

/** POST /api/projects/{id}/site/rollback: the version to make current. */
export class RollbackSiteDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description:
      'A version the project published (GET …/site shows the current one).',
    example: 1,
  })
  @IsDefined(Messages.required())
  @IsInt(Messages.integer())
  @Min(1, Messages.minNumber(1))
  version: number;
}
