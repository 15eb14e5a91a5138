import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { EachString } from '../../common/validation/each-string.decorator';
import { Optional } from '../../common/validation/optional.decorator';
import { WellFormedText } from '../../common/validation/storable-text.decorator';
import {
  COMPANY_NAME_MAX,
  LOGO_DESCRIPTION_MAX,
  LOGO_FORMATS,
  LOGO_MAX_COLORS,
  LOGO_STYLES,
  type LogoFormat,
  type LogoStyle,
} from '../logo.constants';

/** The logo generation request. Unknown fields are stripped. */
export class GenerateLogoDto {
  /** Required, otherwise unused: the project is not looked up, and the logo is not linked to it. */
  @ApiProperty({ example: '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20' })
  @IsDefined(Messages.required())
  @IsString(Messages.string())
  @WellFormedText()
  projectId: string;

  @ApiProperty({ minLength: 1, maxLength: COMPANY_NAME_MAX, example: 'Acme' })
  @IsDefined(Messages.required())
  @IsString(Messages.string())
  @MinLength(1, Messages.minChars(1))
  @MaxLength(COMPANY_NAME_MAX, Messages.maxChars(COMPANY_NAME_MAX))
  @WellFormedText()
  companyName: string;

  @ApiProperty({ enum: LOGO_STYLES, enumName: 'LogoStyle', example: 'modern' })
  @IsDefined(Messages.required())
  @IsIn(LOGO_STYLES, Messages.oneOf(LOGO_STYLES))
  style: LogoStyle;

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: LOGO_MAX_COLORS,
    example: ['#0044ff', 'white'],
  })
  @IsDefined(Messages.required())
  @IsArray(Messages.array())
  @ArrayMinSize(1, Messages.minItems(1))
  @ArrayMaxSize(LOGO_MAX_COLORS, Messages.maxItems(LOGO_MAX_COLORS))
  @EachString()
  @WellFormedText(true)
  colors: string[];

  @ApiPropertyOptional({
    maxLength: LOGO_DESCRIPTION_MAX,
    example: 'Fast parcel delivery',
  })
  @Optional()
  @IsString(Messages.string())
  @MaxLength(LOGO_DESCRIPTION_MAX, Messages.maxChars(LOGO_DESCRIPTION_MAX))
  @WellFormedText()
  description?: string;

  @ApiPropertyOptional({ example: 'logistics' })
  @Optional()
  @IsString(Messages.string())
  @WellFormedText()
  industry?: string;

  @ApiPropertyOptional({ type: [String], example: ['bold', 'friendly'] })
  @Optional()
  @IsArray(Messages.array())
  @EachString()
  @WellFormedText(true)
  mood?: string[];

  @ApiPropertyOptional({
    enum: LOGO_FORMATS,
    enumName: 'LogoFormat',
    description:
      "`png` (the default) or `svg`, for an image model that draws SVG (GET /api/ai/models: the model's `formats`); another model answers 400. An SVG is served sandboxed.",
    example: 'png',
  })
  @Optional()
  @IsIn(LOGO_FORMATS, Messages.oneOf(LOGO_FORMATS))
  format?: LogoFormat;
}

/** What draws a logo: the request without the project it names. */
export type LogoRequest = Omit<GenerateLogoDto, 'projectId'>;
