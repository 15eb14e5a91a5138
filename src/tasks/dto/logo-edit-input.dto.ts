import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDefined,
  IsInt,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';
import { WellFormedText } from '../../common/validation/storable-text.decorator';

export const LOGO_EDIT_COUNT_MAX = 4;
export const LOGO_EDIT_INSTRUCTIONS_MAX = 1000;

/**
 * A logo-edit task's input: which kept logo of the project to start from,
 * what to change, and how many variations. Unknown fields are stripped.
 */
export class LogoEditInputDto {
  @ApiProperty({
    format: 'uuid',
    description:
      'A kept logo of this project (a LOGO asset, PNG, JPEG or WebP).',
    example: '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20',
  })
  @IsDefined(Messages.required())
  @IsString(Messages.string())
  @IsUUID('all', { message: 'Invalid uuid' })
  assetId: string;

  @ApiProperty({
    minLength: 1,
    maxLength: LOGO_EDIT_INSTRUCTIONS_MAX,
    description: 'What to change; the rest of the logo is kept.',
    example: 'Make the mark rounder and the blue darker',
  })
  @IsDefined(Messages.required())
  @IsString(Messages.string())
  @MinLength(1, Messages.minChars(1))
  @MaxLength(
    LOGO_EDIT_INSTRUCTIONS_MAX,
    Messages.maxChars(LOGO_EDIT_INSTRUCTIONS_MAX),
  )
  @WellFormedText()
  instructions: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: LOGO_EDIT_COUNT_MAX,
    // No `default`: openapi-typescript's default options make a field
    // with one required, and sending it is optional.
    description: 'How many variations to draw (1 when left out).',
    example: 2,
  })
  @Optional()
  @IsInt(Messages.integer())
  @Min(1, Messages.minNumber(1))
  @Max(LOGO_EDIT_COUNT_MAX, Messages.maxNumber(LOGO_EDIT_COUNT_MAX))
  count?: number;
}
