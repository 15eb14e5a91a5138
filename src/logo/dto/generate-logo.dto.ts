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
import { Optional } from '../../common/validation/optional.decorator';
import {
  COMPANY_NAME_MAX,
  LOGO_DESCRIPTION_MAX,
  LOGO_MAX_COLORS,
  LOGO_STYLES,
  type LogoStyle,
} from '../logo.constants';

/** SPEC §2 "Logo generation request". Unknown fields are stripped. */
export class GenerateLogoDto {
  /** Required, otherwise unused: no lookup, no link (SPEC 4.6). */
  @IsDefined(Messages.required())
  @IsString(Messages.string())
  projectId: string;

  @IsDefined(Messages.required())
  @IsString(Messages.string())
  @MinLength(1, Messages.minChars(1))
  @MaxLength(COMPANY_NAME_MAX, Messages.maxChars(COMPANY_NAME_MAX))
  companyName: string;

  @IsDefined(Messages.required())
  @IsIn(LOGO_STYLES, Messages.oneOf(LOGO_STYLES))
  style: LogoStyle;

  @IsDefined(Messages.required())
  @IsArray(Messages.array())
  @ArrayMinSize(1, Messages.minItems(1))
  @ArrayMaxSize(LOGO_MAX_COLORS, Messages.maxItems(LOGO_MAX_COLORS))
  @IsString(Messages.eachString())
  colors: string[];

  @Optional()
  @IsString(Messages.string())
  @MaxLength(LOGO_DESCRIPTION_MAX, Messages.maxChars(LOGO_DESCRIPTION_MAX))
  description?: string;

  @Optional()
  @IsString(Messages.string())
  industry?: string;

  @Optional()
  @IsArray(Messages.array())
  @IsString(Messages.eachString())
  mood?: string[];
}
