import { Inject, Injectable } from '@nestjs/common';
import { authConfig, type AuthConfig } from '../auth/auth.config';
import { ProjectAccess } from '../auth/project-access';
import { StreamTickets, TICKET_TTL_MS } from '../auth/stream-tickets';
import type { EventSink } from '../common/event-sink';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { isWellFormedId } from '../common/ids';
import type { CallContext } from '../common/call-context';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import type { StreamTicketDto } from './dto/create-ticket.dto';
import { EventStreams } from './event-streams.service';

/**
 * Who may watch what: a project's stream only for a project the caller may
 * read (404 otherwise, as GET would answer); the caller's stream for its
 * own projects (an admin: anyone's, or all; without auth, the ?userId= it
 * names, or all), as the list decides (ProjectAccess).
 */
@Injectable()
export class EventsService {
  private readonly tickets?: StreamTickets;

  constructor(
    private readonly scope: ProjectScope,
    private readonly streams: EventStreams,
    @Inject(authConfig.KEY) auth: AuthConfig,
  ) {
    if (auth.mode === 'oidc' && auth.signingKey) {
      this.tickets = new StreamTickets(auth.signingKey);
    }
  }

  /** GET /api/projects/{id}/events. */
  async watchProject(
    projectId: string,
    lastEventId: string | undefined,
    context: CallContext,
    sink: EventSink,
  ): Promise<void> {
    await this.assertReadable(projectId, context);
    await this.streams.open(
      this.request({ projectId }, lastEventId, context),
      sink,
    );
  }

  /** GET /api/events. */
  async watchProjects(
    userId: string | undefined,
    lastEventId: string | undefined,
    context: CallContext,
    sink: EventSink,
  ): Promise<void> {
    const listed = ProjectAccess.of(context).listedOwner(userId);
    await this.streams.open(
      this.request(
        listed === undefined ? {} : { userId: listed },
        lastEventId,
        context,
      ),
      sink,
    );
  }

  /**
   * POST /api/events/tickets: the stream's URL with a ticket for the
   * caller (AUTH_MODE=oidc); without authentication, the plain URL.
   */
  async ticket(
    projectId: string | undefined,
    context: CallContext,
  ): Promise<StreamTicketDto> {
    let path = '/api/events';
    if (projectId !== undefined) {
      await this.assertReadable(projectId, context);
      path = `/api/projects/${projectId}/events`;
    }
    const now = Date.now();
    const expiresAt = new Date(now + TICKET_TTL_MS).toISOString();
    const base = `${context.baseUrlOrRelative()}${path}`;
    const { caller } = context;
    if (!caller || !this.tickets) return { url: base, expiresAt };
    const ticket = this.tickets.issue(caller, projectId, now);
    return { url: `${base}?ticket=${ticket}`, expiresAt };
  }

  /** 404, as GET would answer, unless the caller may read the project. */
  private async assertReadable(
    projectId: string,
    context: CallContext,
  ): Promise<void> {
    const reader = ProjectAccess.of(context).readOwner();
    if (
      !isWellFormedId(projectId) ||
      !(await this.scope.isVisible(projectId, reader))
    ) {
      throw new ProjectNotFoundException();
    }
  }

  private request(
    scope: { projectId?: string; userId?: string },
    lastEventId: string | undefined,
    context: CallContext,
  ) {
    return {
      scope,
      lastEventId,
      clientKey: context.clientKey,
      baseUrl: context.baseUrlOrRelative(),
      expiresAt: context.caller?.expiresAt,
      anonymousAddress: context.caller ? undefined : context.address,
    };
  }
}
