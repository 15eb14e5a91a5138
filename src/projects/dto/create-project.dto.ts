import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';
import {
  NO_NUL_PATTERN,
  StorableText,
} from '../../common/validation/storable-text.decorator';
import {
  PROJECT_DESCRIPTION_MAX,
  PROJECT_NAME_MAX,
  PROJECT_USER_ID_MAX,
} from '../projects.constants';

/** The create request. Unknown fields are stripped, not rejected. */
export class CreateProjectDto {
  @ApiProperty({
    minLength: 1,
    maxLength: PROJECT_NAME_MAX,
    pattern: NO_NUL_PATTERN,
    example: 'Spring launch',
  })
  @IsDefined(Messages.required())
  @IsString(Messages.string())
  @MinLength(1, Messages.minChars(1))
  @MaxLength(PROJECT_NAME_MAX, Messages.maxChars(PROJECT_NAME_MAX))
  @StorableText()
  name: string;

  @ApiPropertyOptional({
    maxLength: PROJECT_DESCRIPTION_MAX,
    pattern: NO_NUL_PATTERN,
    example: 'Brand kit',
  })
  @Optional()
  @IsString(Messages.string())
  @MaxLength(
    PROJECT_DESCRIPTION_MAX,
    Messages.maxChars(PROJECT_DESCRIPTION_MAX),
  )
  @StorableText()
  description?: string;

  @ApiProperty({
    maxLength: PROJECT_USER_ID_MAX,
    pattern: NO_NUL_PATTERN,
    example: 'user-1',
  })
  @IsDefined(Messages.required())
  @IsString(Messages.string())
  @MaxLength(PROJECT_USER_ID_MAX, Messages.maxChars(PROJECT_USER_ID_MAX))
  @StorableText()
  userId: string;
}
