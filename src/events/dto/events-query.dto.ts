import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';
import {
  NO_NUL_PATTERN,
  StorableText,
} from '../../common/validation/storable-text.decorator';

/** The longest ticket or event id worth reading (both are far shorter). */
const MAX_TOKEN_LENGTH = 1024;

/** The query of a project's stream: where to resume, and a ticket. */
export class ProjectEventsQuery {
  @ApiPropertyOptional({
    description:
      'Resume after this event (as the Last-Event-ID header does, for clients that cannot set it); the header wins. An id older than the log keeps, or one it never gave, starts the stream with a `reset` event',
    example: '1042',
  })
  @Optional()
  @IsString(Messages.string())
  @MaxLength(MAX_TOKEN_LENGTH)
  lastEventId?: string;

  @ApiPropertyOptional({
    description:
      'A stream ticket from POST /api/events/tickets (AUTH_MODE=oidc), for EventSource, which cannot send Authorization',
  })
  @Optional()
  @IsString(Messages.string())
  @MaxLength(MAX_TOKEN_LENGTH)
  ticket?: string;
}

/** The query of the caller's stream: ProjectEventsQuery and the user filter. */
export class EventsQuery extends ProjectEventsQuery {
  @ApiPropertyOptional({
    description:
      "Only this user's projects (AUTH_MODE=none, as the list's userId; with oidc a caller watches its own, an admin anyone's or, without it, everyone's)",
    pattern: NO_NUL_PATTERN,
    example: 'user-1',
  })
  @Optional()
  @IsString(Messages.string())
  @StorableText()
  userId?: string;
}
