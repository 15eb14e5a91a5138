import request from 'supertest';
import { DevAuthProviderProcess } from '../../../support/dev-auth-provider-process';
import { EventStreamClient } from '../../../support/event-stream-client';
import { listen, until } from '../../../support/pending-request';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Live changes with AUTH_MODE=oidc: a stream needs a token (Authorization)
 * or a ticket from POST /api/events/tickets (for EventSource); a user
 * receives only the events of its own projects; an expired token ends
 * the stream.
 */
describe('Live changes with AUTH_MODE=oidc', () => {
  let provider: DevAuthProviderProcess;
  let t: TestApp;
  let base: string;
  let alice: string;
  let bob: string;
  let admin: string;
  const open: EventStreamClient[] = [];

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const stream = async (path: string, headers: Record<string, string>) => {
    const client = await EventStreamClient.open(`${base}${path}`, headers);
    open.push(client);
    return client;
  };
  const createProject = async (token: string, name: string) =>
    (
      await request(t.server)
        .post('/api/projects')
        .set(as(token))
        .send({ name })
        .expect(201)
    ).body.project as { id: string; userId: string };

  beforeAll(async () => {
    provider =
      await DevAuthProviderProcess.startWithNewKey('live-changes-oidc');
    t = await createTestApp({
      AUTH_MODE: 'oidc',
      AUTH_ISSUER: provider.issuer,
      AUTH_AUDIENCE: 'workspace-api',
      AUTH_ADMIN_ROLE: 'workspace-admin',
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
    });
    base = await listen(t);
    alice = await provider.token('alice');
    bob = await provider.token('bob');
    admin = await provider.token('root', { roles: ['workspace-admin'] });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await t?.close();
    await provider?.stop();
  });

  it('refuses a stream without a token or with a forged ticket (401), and never lets one user watch another', async () => {
    expect((await stream('/api/events', {})).status).toBe(401);
    expect((await stream('/api/events?ticket=e30.forged', {})).status).toBe(
      401,
    );
    const bobs = await createProject(bob, 'Bob');
    const toBob = await stream(`/api/projects/${bobs.id}/events`, as(alice));
    expect(toBob.status).toBe(404);
    expect(JSON.parse(toBob.body)).toMatchObject({
      code: 'project_not_found',
    });
    const named = await stream('/api/events?userId=bob', as(alice));
    expect(named.status).toBe(403);
  });

  it("sends a user the events of its own projects only, and an admin everyone's", async () => {
    const aliceStream = await stream('/api/events', as(alice));
    const bobStream = await stream('/api/events', as(bob));
    const everyone = await stream('/api/events', as(admin));
    const a = await createProject(alice, 'Alice');
    const b = await createProject(bob, 'Bob');
    await everyone.waitForChanges(2);
    await aliceStream.waitForChanges(1);
    await bobStream.waitForChanges(1);
    expect(aliceStream.changes().map((event) => event.projectId)).toEqual([
      a.id,
    ]);
    expect(bobStream.changes().map((event) => event.projectId)).toEqual([b.id]);
    expect(
      everyone
        .changes()
        .map((event) => event.projectId)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    // Resuming from the start replays only the caller's own, too.
    const replay = await stream('/api/events', {
      ...as(bob),
      'Last-Event-ID': '0',
    });
    await replay.waitForChanges(1);
    expect(replay.changes().every((event) => event.userId === 'bob')).toBe(
      true,
    );
  });

  it('opens a stream from a ticket without Authorization, for the ticket holder only', async () => {
    const project = await createProject(alice, 'Ticketed');
    const issued = await request(t.server)
      .post('/api/events/tickets')
      .set(as(alice))
      .send({ projectId: project.id })
      .expect(200);
    const { url, expiresAt } = issued.body as {
      url: string;
      expiresAt: string;
    };
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now());
    const parsed = new URL(url);
    expect(parsed.pathname).toBe(`/api/projects/${project.id}/events`);
    const byTicket = await stream(`${parsed.pathname}${parsed.search}`, {});
    expect(byTicket.status).toBe(200);
    await request(t.server)
      .patch(`/api/projects/${project.id}`)
      .set(as(alice))
      .send({ name: 'Renamed' })
      .expect(200);
    await byTicket.waitForChanges(1);
    expect(byTicket.changes()[0]).toMatchObject({
      type: 'project.updated',
      userId: 'alice',
    });
    // Alice's ticket opens nothing of Bob's (refused as a ticket for another
    // stream, before anything is looked up); Bob cannot get one for hers.
    const bobs = await createProject(bob, 'Bob');
    const other = `/api/projects/${bobs.id}/events${parsed.search}`;
    expect((await stream(other, {})).status).toBe(401);
    await request(t.server)
      .post('/api/events/tickets')
      .set(as(bob))
      .send({ projectId: project.id })
      .expect(404);
    // A ticket for all of Alice's projects watches Alice's only.
    const all = await request(t.server)
      .post('/api/events/tickets')
      .set(as(alice))
      .send({})
      .expect(200);
    const allUrl = new URL((all.body as { url: string }).url);
    expect(allUrl.pathname).toBe('/api/events');
    const allStream = await stream(`${allUrl.pathname}${allUrl.search}`, {});
    await createProject(bob, 'Bob again');
    const mine = await createProject(alice, 'Alice again');
    await allStream.waitForChanges(1);
    expect(allStream.changes().map((event) => event.projectId)).toEqual([
      mine.id,
    ]);
  });

  it("opens only the stream a ticket was issued for: not another of its user's projects, nor the unscoped stream (401)", async () => {
    const first = await createProject(alice, 'First');
    const second = await createProject(alice, 'Second');
    const ticketFor = async (body: { projectId?: string }) =>
      new URL(
        (
          (
            await request(t.server)
              .post('/api/events/tickets')
              .set(as(alice))
              .send(body)
              .expect(200)
          ).body as { url: string }
        ).url,
      ).search;
    const forFirst = await ticketFor({ projectId: first.id });
    expect(
      (await stream(`/api/projects/${first.id}/events${forFirst}`, {})).status,
    ).toBe(200);
    expect(
      (await stream(`/api/projects/${second.id}/events${forFirst}`, {})).status,
    ).toBe(401);
    expect((await stream(`/api/events${forFirst}`, {})).status).toBe(401);
    const forAll = await ticketFor({});
    expect((await stream(`/api/events${forAll}`, {})).status).toBe(200);
    expect(
      (await stream(`/api/projects/${first.id}/events${forAll}`, {})).status,
    ).toBe(401);
  });

  it('ends a stream when the token it was opened with expires', async () => {
    const shortLived = await provider.token('carol', { expiresIn: 3 });
    const client = await stream('/api/events', as(shortLived));
    expect(client.status).toBe(200);
    await until(() => client.ended, 'the stream to end with the token', 15_000);
    const { text } = await request(t.server).get('/metrics').expect(200);
    expect(text).toMatch(/event_streams_closed_total\{reason="expired"\} 1/);
  });
});
