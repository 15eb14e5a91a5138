import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';

/** POST /api/events/tickets: for one project's stream, or the caller's. */
export class CreateTicketDto {
  @ApiPropertyOptional({
    description:
      "The project whose stream the URL opens; without it, the caller's stream of all its projects",
    example: '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20',
  })
  @Optional()
  @IsString(Messages.string())
  projectId?: string;
}

export class StreamTicketDto {
  /** The stream's URL, the ticket in its query; it works for one minute. */
  url: string;
  /** When the ticket stops opening streams (ISO-8601 UTC). */
  expiresAt: string;
}
