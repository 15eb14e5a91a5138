import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsString,
  MaxLength,
} from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';
import { WellFormedText } from '../../common/validation/storable-text.decorator';
import {
  GRAPHIC_FORMATS,
  GRAPHIC_HEADLINE_MAX,
  type GraphicFormat,
} from '../graphic-formats';

/**
 * A graphics task's input: which formats (the five social ones when left
 * out; `hero` only when asked for) and the headline written on them (by
 * default the latest marketing copy's tagline, else the project's name).
 */
export class GraphicsInputDto {
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...GRAPHIC_FORMATS] },
    minItems: 1,
    maxItems: GRAPHIC_FORMATS.length,
    uniqueItems: true,
    description:
      'og 1200×630, x 1600×900, linkedin 1200×627, instagram 1080×1080, story 1080×1920 (composed, no model call), hero 1920×1080 (its background drawn by the image model). Default: the five social formats.',
    example: ['og', 'x', 'hero'],
  })
  @Optional()
  @IsArray(Messages.array())
  @ArrayMinSize(1, Messages.minItems(1))
  @ArrayMaxSize(
    GRAPHIC_FORMATS.length,
    Messages.maxItems(GRAPHIC_FORMATS.length),
  )
  @ArrayUnique({ message: 'Expected every format at most once' })
  @IsIn(GRAPHIC_FORMATS, { ...Messages.oneOf(GRAPHIC_FORMATS), each: true })
  formats?: GraphicFormat[];

  @ApiPropertyOptional({
    maxLength: GRAPHIC_HEADLINE_MAX,
    description:
      "The text on the graphics; by default the tagline of the project's latest marketing copy, else its name.",
    example: 'Parcels across town in an hour',
  })
  @Optional()
  @IsString(Messages.string())
  @MaxLength(GRAPHIC_HEADLINE_MAX, Messages.maxChars(GRAPHIC_HEADLINE_MAX))
  @WellFormedText()
  headline?: string;
}
