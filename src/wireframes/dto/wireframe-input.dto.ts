import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsString,
  MaxLength,
} from 'class-validator';
import { EachItem } from '../../common/validation/each-item';
import { EachString } from '../../common/validation/each-string.decorator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';
import { WellFormedText } from '../../common/validation/storable-text.decorator';
import { PAGE_NAME, WIREFRAME_LIMITS } from '../wireframe';

const isPageName = (item: unknown): boolean =>
  typeof item === 'string' &&
  item.length <= WIREFRAME_LIMITS.pageName &&
  PAGE_NAME.test(item);

/** The pages a wireframe plans when none are named. */
export const DEFAULT_WIREFRAME_PAGES = ['home'];

/** A wireframe task's input: every field optional. Unknown fields are stripped. */
export class WireframeInputDto {
  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: WIREFRAME_LIMITS.pages,
    uniqueItems: true,
    description: `The pages to plan, in order: 1-${WIREFRAME_LIMITS.pages} distinct names of lowercase letters, digits and dashes (a letter first, at most ${WIREFRAME_LIMITS.pageName} characters). Default ["home"].`,
    example: ['home', 'pricing'],
  })
  @Optional()
  @IsArray(Messages.array())
  @ArrayMinSize(1, Messages.minItems(1))
  @ArrayMaxSize(
    WIREFRAME_LIMITS.pages,
    Messages.maxItems(WIREFRAME_LIMITS.pages),
  )
  @ArrayUnique({ message: 'Page names must be distinct' })
  @EachString()
  @EachItem('matches', isPageName, {
    message: `Each page name must be lowercase letters, digits and dashes, a letter first, at most ${WIREFRAME_LIMITS.pageName} characters`,
  })
  pages?: string[];

  @ApiPropertyOptional({
    maxLength: 2000,
    description: 'What the wireframe should include or stress.',
    example: 'A pricing table with three plans; no team section.',
  })
  @Optional()
  @IsString(Messages.string())
  @MaxLength(2000, Messages.maxChars(2000))
  @WellFormedText()
  notes?: string;
}
