import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/**
 * A brand-kit task's input. Without `assetId` the LOGO section's chosen
 * logo (none chosen: 409 at creation).
 */
export class BrandKitInputDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "The image asset (PNG, JPEG or WebP) the kit is made from; by default the LOGO section's chosen one",
    example: '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21',
  })
  @Optional()
  @IsString(Messages.string())
  @Matches(UUID, { message: 'Invalid uuid' })
  assetId?: string;

  @ApiPropertyOptional({
    pattern: '^#[0-9a-fA-F]{6}$',
    description:
      "og-image.png's background: by default the first #rrggbb colour of the logo's prompt, else white",
    example: '#0044ff',
  })
  @Optional()
  @IsString(Messages.string())
  @Matches(HEX_COLOR, { message: 'Invalid color: expected #rrggbb' })
  backgroundColor?: string;
}
