import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A site-check task's input. Without `assetId` the CODE section's chosen
 * landing page (none chosen: 409 at creation). Unknown fields are
 * stripped.
 */
export class SiteCheckInputDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "The landing page (an asset of kind landing-page of this project) to check; by default the CODE section's chosen one",
    example: '019aa8f3-0b4e-7a21-8c3d-5e6f7a8b9c0d',
  })
  @Optional()
  @IsString(Messages.string())
  @Matches(UUID, { message: 'Invalid uuid' })
  assetId?: string;
}
