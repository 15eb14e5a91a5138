import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';

export const RENDITION_MIN = 16;
export const RENDITION_MAX = 1024;

/**
 * The content route's own query: a square PNG rendition instead of the
 * kept bytes. (The signed URL's expires and signature are read apart, as
 * they were sent.)
 */
export class AssetContentQuery {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: RENDITION_MIN,
    maximum: RENDITION_MAX,
    description:
      'A square PNG of this many pixels a side (the image contained, transparent padding) instead of the kept bytes; PNG, JPEG, WebP and SVG assets only',
    example: 32,
  })
  @Optional()
  @Type(() => Number)
  @IsInt(Messages.integer())
  @Min(RENDITION_MIN, Messages.minNumber(RENDITION_MIN))
  @Max(RENDITION_MAX, Messages.maxNumber(RENDITION_MAX))
  size?: number;
}
