import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
} from 'class-validator';
import { EachItem } from '../../common/validation/each-item';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';

export const ICON_SET_MAX_NAMES = 24;
export const ICON_NAME_MAX = 40;
export const ICON_STYLES = ['outline', 'solid', 'duotone'] as const;
export type IconStyle = (typeof ICON_STYLES)[number];

/** A lowercase kebab name: `cart`, `shopping-cart`, `arrow-up-2`. */
export const ICON_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const isIconName = (item: unknown): boolean =>
  typeof item === 'string' &&
  item.length <= ICON_NAME_MAX &&
  ICON_NAME.test(item);

/**
 * An icon-set task's input. A name given twice is drawn once (folded at
 * creation, first place kept). Unknown fields are stripped.
 */
export class IconSetInputDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: ICON_SET_MAX_NAMES,
    description:
      'The icons to make, one asset each: lowercase kebab names of at most 40 characters. A name Lucide has is taken from it; another is drawn by a model. A repeated name is made once.',
    example: ['search', 'shopping-cart', 'house', 'cart'],
  })
  @IsDefined(Messages.required())
  @IsArray(Messages.array())
  @ArrayMinSize(1, Messages.minItems(1))
  @ArrayMaxSize(ICON_SET_MAX_NAMES, Messages.maxItems(ICON_SET_MAX_NAMES))
  @EachItem('iconName', isIconName, {
    message: `Every name must be lowercase kebab case (a-z, 0-9, single hyphens), at most ${ICON_NAME_MAX} characters`,
  })
  names: string[];

  @ApiPropertyOptional({
    enum: ICON_STYLES,
    enumName: 'IconStyle',
    description:
      'outline (the default): 2-pixel round strokes; solid: filled shapes; duotone: outline over a light fill of the second brand colour.',
    example: 'outline',
  })
  @Optional()
  @IsIn(ICON_STYLES, Messages.oneOf(ICON_STYLES))
  style?: IconStyle;
}
