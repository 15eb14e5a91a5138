import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A landing-page task's input (unknown fields are stripped). Without
 * `fixReportId` the page is written from the project's name and
 * description, its latest marketing copy, its chosen wireframe and logo;
 * with it, the page that report checked is written again, corrected.
 */
export class LandingPageInputDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'A site-report asset of this project (a site-check task’s result): the code model is sent the page it checked and its errors and warnings, and asked for the corrected page, kept as a new landing page',
    example: '019aa8f3-0b4e-7a21-8c3d-5e6f7a8b9c0d',
  })
  @Optional()
  @IsString(Messages.string())
  @Matches(UUID, { message: 'Invalid uuid' })
  fixReportId?: string;
}
