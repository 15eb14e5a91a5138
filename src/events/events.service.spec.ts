import { Test } from '@nestjs/testing';
import { authConfig } from '../auth/auth.config';
import { StreamTickets } from '../auth/stream-tickets';
import type { CallContext } from '../common/call-context';
import type { EventSink } from '../common/event-sink';
import { AuthFailure } from '../failures/auth-failure.error';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { EventStreams } from './event-streams.service';
import { EventsService } from './events.service';

const PROJECT = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const SIGNING_KEY = 'a-signing-key-of-at-least-thirty-two-chars';
const sink = {} as EventSink;

const contextOf = (caller?: { userId: string; admin: boolean }) =>
  ({
    caller,
    clientKey: caller ? `user:${caller.userId}` : 'ip:203.0.113.9',
    address: '203.0.113.9',
    baseUrlOrRelative: () => 'https://api.example.com',
  }) as CallContext;

async function build(
  auth: { mode: string; signingKey?: string },
  visible = true,
) {
  const scope = { isVisible: jest.fn().mockResolvedValue(visible) };
  const streams = { open: jest.fn().mockResolvedValue(undefined) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      EventsService,
      { provide: ProjectScope, useValue: scope },
      { provide: EventStreams, useValue: streams },
      { provide: authConfig.KEY, useValue: auth },
    ],
  }).compile();
  return { service: moduleRef.get(EventsService), scope, streams };
}

describe('EventsService', () => {
  it("opens a project's stream only for a project the caller may read, else 404 before any byte", async () => {
    const { service, scope, streams } = await build({ mode: 'none' }, false);
    await expect(
      service.watchProject(PROJECT, undefined, contextOf(), sink),
    ).rejects.toBeInstanceOf(ProjectNotFoundException);
    await expect(
      service.watchProject('not-an-id', undefined, contextOf(), sink),
    ).rejects.toBeInstanceOf(ProjectNotFoundException);
    expect(streams.open).not.toHaveBeenCalled();
    expect(scope.isVisible).toHaveBeenCalledTimes(1);
  });

  it("asks the project scope as the caller's reader: its own projects, an admin anyone's", async () => {
    const { service, scope, streams } = await build({ mode: 'oidc' });
    await service.watchProject(
      PROJECT,
      '41',
      contextOf({ userId: 'user-1', admin: false }),
      sink,
    );
    expect(scope.isVisible).toHaveBeenLastCalledWith(PROJECT, 'user-1');
    expect(streams.open).toHaveBeenCalledWith(
      expect.objectContaining({
        scope: { projectId: PROJECT },
        lastEventId: '41',
        clientKey: 'user:user-1',
        anonymousAddress: undefined,
        // The origin the events' asset urls are made for.
        baseUrl: 'https://api.example.com',
      }),
      sink,
    );
    await service.watchProject(
      PROJECT,
      undefined,
      contextOf({ userId: 'root', admin: true }),
      sink,
    );
    expect(scope.isVisible).toHaveBeenLastCalledWith(PROJECT, undefined);
  });

  it("the unscoped stream is the caller's own projects; another user's is 403", async () => {
    const { service, streams } = await build({ mode: 'oidc' });
    const caller = contextOf({ userId: 'user-1', admin: false });
    await service.watchProjects(undefined, undefined, caller, sink);
    expect(streams.open).toHaveBeenLastCalledWith(
      expect.objectContaining({ scope: { userId: 'user-1' } }),
      sink,
    );
    await expect(
      service.watchProjects('user-2', undefined, caller, sink),
    ).rejects.toBeInstanceOf(AuthFailure);
  });

  it('an anonymous stream counts against its address', async () => {
    const { service, streams } = await build({ mode: 'none' });
    await service.watchProjects(undefined, undefined, contextOf(), sink);
    expect(streams.open).toHaveBeenLastCalledWith(
      expect.objectContaining({ scope: {}, anonymousAddress: '203.0.113.9' }),
      sink,
    );
  });

  it("a ticket's URL names the stream, and carries a ticket for that stream only when callers are proven", async () => {
    const open = await build({ mode: 'none' });
    const plain = await open.service.ticket(PROJECT, contextOf());
    expect(plain.url).toBe(
      `https://api.example.com/api/projects/${PROJECT}/events`,
    );

    const { service } = await build({ mode: 'oidc', signingKey: SIGNING_KEY });
    const caller = { userId: 'user-1', admin: false };
    const issued = await service.ticket(undefined, contextOf(caller));
    const ticket = new URL(issued.url).searchParams.get('ticket') ?? '';
    expect(issued.url).toMatch(/^https:\/\/api\.example\.com\/api\/events\?/);
    const tickets = new StreamTickets(SIGNING_KEY);
    expect(tickets.verify(ticket, undefined)).toMatchObject(caller);
    const refused = (() => {
      try {
        tickets.verify(ticket, PROJECT);
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(AuthFailure);
  });
});
