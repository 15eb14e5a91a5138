import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { WellFormedText } from '../../common/validation/storable-text.decorator';

/** Longer than any URL this service issues for a hosted logo. */
export const LOGO_URL_MAX = 2048;

/**
 * Keep the logo a user previewed: the `logoUrl` POST /api/ai/generate-logo
 * answered, hosted by this service. Unknown fields are stripped.
 */
export class KeepPreviewedLogoDto {
  @ApiProperty({
    maxLength: LOGO_URL_MAX,
    description:
      "A logoUrl this service answered (…/api/ai/logos/<id>.<png|jpg|webp>), absolute under this service's origin or as a path, still within LOGO_URL_TTL_S. Its bytes are kept as they are: the image model is not called. Any other URL is refused (400): the service never fetches a URL it is given.",
    example:
      'https://api.example.com/api/ai/logos/9f2c4e1ab37d40c58e0f6a2b1c3d4e5f.png',
  })
  @IsDefined(Messages.required())
  @IsString(Messages.string())
  @MaxLength(LOGO_URL_MAX, Messages.maxChars(LOGO_URL_MAX))
  @WellFormedText()
  logoUrl: string;
}
