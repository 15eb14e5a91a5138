import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { WellFormedText } from '../../common/validation/storable-text.decorator';

/** An id is 36 characters; a longer string names no asset. */
const ASSET_ID_MAX = 36;

/**
 * PUT …/sections/{sectionId}/selection: the asset to choose. A string of
 * the right size that is no asset id of the project is a 404, as for the
 * asset routes. Unknown fields are stripped.
 */
export class SelectAssetDto {
  @ApiProperty({
    description: 'The id of one of the section’s assets',
    minLength: 1,
    maxLength: ASSET_ID_MAX,
    example: '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e30',
  })
  @IsDefined(Messages.required())
  @IsString(Messages.string())
  @MinLength(1, Messages.minChars(1))
  @MaxLength(ASSET_ID_MAX, Messages.maxChars(ASSET_ID_MAX))
  @WellFormedText()
  assetId: string;
}
