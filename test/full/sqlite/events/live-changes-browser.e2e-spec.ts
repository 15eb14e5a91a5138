import type { IncomingMessage } from 'node:http';
import request from 'supertest';
import type { ChangeEvent } from '../../../../src/change-log/change-event';
import { ChangeLog } from '../../../../src/change-log/change-log.repository';
import { CrossOriginPage } from '../../../support/cross-origin-page';
import { DevAuthProviderProcess } from '../../../support/dev-auth-provider-process';
import {
  EventStreamPage,
  type PageEvent,
} from '../../../support/event-stream-page';
import { listen } from '../../../support/pending-request';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Live changes seen by a frontend on another origin, in headless Chromium:
 * the browser's own EventSource (CORS, its reconnection with Last-Event-ID)
 * and a fetch-based reader with a bearer token, against changes another
 * client makes through the API. Which events a reader must have comes from
 * the change log itself (ChangeLog.after), not from a stream.
 */

/** Every event the log holds after `id`, oldest first. */
async function loggedAfter(t: TestApp, id: number): Promise<ChangeEvent[]> {
  return t.app.get(ChangeLog).after(id, {}, 500);
}

async function latestId(t: TestApp): Promise<number> {
  return (await t.app.get(ChangeLog).bounds()).latest;
}

/** The delivery lag histogram of /metrics: all observations, and those <= 1 s. */
async function deliveryLag(
  t: TestApp,
): Promise<{ count: number; withinOneSecond: number }> {
  const metrics = await request(t.server).get('/metrics').expect(200);
  const text = metrics.text;
  const value = (pattern: RegExp) => {
    const found = pattern.exec(text);
    if (!found) throw new Error(`${String(pattern)} not in /metrics`);
    return Number(found[1]);
  };
  return {
    count: value(/^event_delivery_lag_seconds_count (\d+)$/m),
    withinOneSecond: value(
      /^event_delivery_lag_seconds_bucket\{le="1"\} (\d+)$/m,
    ),
  };
}

const idsOf = (events: readonly { id: string }[]) =>
  events.map((event) => event.id);

describe('live changes in a page on another origin (headless Chromium)', () => {
  let browser: CrossOriginPage;
  let streams: EventStreamPage;

  beforeAll(async () => {
    browser = await CrossOriginPage.open();
    streams = new EventStreamPage(browser.page);
  }, 60_000);

  // Each test judges the console of its own readers only.
  beforeEach(() => browser.problems.splice(0));
  afterEach(() => streams.closeAll());

  afterAll(async () => {
    await browser?.close();
  });

  describe('without authentication', () => {
    let t: TestApp;
    let api: string;

    beforeAll(async () => {
      t = await createTestApp({ CORS_ORIGINS: browser.origin });
      api = await listen(t);
    });
    afterAll(async () => {
      await t?.close();
    });

    const createProject = async (name: string) =>
      (
        await request(t.server)
          .post('/api/projects')
          .send({ name, userId: 'ana' })
          .expect(201)
      ).body as { project: { id: string } };

    const rename = (id: string, name: string) =>
      request(t.server).patch(`/api/projects/${id}`).send({ name }).expect(200);

    it("an EventSource receives a change another client makes, and the server's delivery lag stays under a second", async () => {
      await streams.openEventSource('all', `${api}/api/events`);
      expect(await streams.reader('all')).toMatchObject({
        opened: 1,
        errors: [],
      });

      const { project } = await createProject('Seen live');
      const logged = await loggedAfter(t, 0);
      expect(logged.length).toBeGreaterThan(0);
      const last = logged[logged.length - 1];
      await streams.waitForEvent('all', last.id);

      const seen = await streams.reader('all');
      expect(idsOf(seen.events)).toEqual(idsOf(logged));
      expect(seen.events[0]).toMatchObject({
        type: 'project.created',
        data: { type: 'project.created', projectId: project.id },
      });
      expect(typeof seen.events[0].data.data).toBe('object');
      expect((seen.events[0].data.data as { etag?: unknown }).etag).toMatch(
        /^W?\/?"/,
      );

      // Commit -> read by the feed, measured inside the server.
      const lag = await deliveryLag(t);
      expect(lag.count).toBeGreaterThanOrEqual(logged.length);
      expect(lag.withinOneSecond).toBe(lag.count);
      await streams.close('all');
      expect(browser.problems).toEqual([]);
    });

    it('closed, then reopened with ?lastEventId=, it receives exactly the events it missed, in order, none twice', async () => {
      const { project } = await createProject('Resumed');
      await streams.openEventSource(
        'project',
        `${api}/api/projects/${project.id}/events`,
      );
      await rename(project.id, 'Resumed 1');
      const before = await latestId(t);
      await streams.waitForEvent('project', String(before));
      const seenBefore = (await streams.reader('project')).events;
      const lastSeen = seenBefore[seenBefore.length - 1].id;
      expect(lastSeen).toBe(String(before));

      await streams.close('project');
      await rename(project.id, 'Resumed 2');
      await rename(project.id, 'Resumed 3');
      // Another project's change is not this stream's.
      await createProject('Elsewhere');
      const missed = (await loggedAfter(t, before)).filter(
        (event) => event.projectId === project.id,
      );
      expect(missed.length).toBeGreaterThanOrEqual(2);

      await streams.openEventSource(
        'project-again',
        `${api}/api/projects/${project.id}/events?lastEventId=${lastSeen}`,
      );
      // One more change after the reopening arrives live, after the replay.
      await rename(project.id, 'Resumed 4');
      const all = (await loggedAfter(t, before)).filter(
        (event) => event.projectId === project.id,
      );
      await streams.waitForEvent('project-again', all[all.length - 1].id);

      const again = (await streams.reader('project-again')).events;
      expect(idsOf(again)).toEqual(idsOf(all));
      expect(idsOf(again).slice(0, missed.length)).toEqual(idsOf(missed));
      expect(new Set(idsOf(again)).size).toBe(again.length);
      expect(again.map((event) => event.data.projectId)).toEqual(
        all.map(() => project.id),
      );
      await streams.close('project-again');
      expect(browser.problems).toEqual([]);
    });

    it('when the server drops the connection, the browser reconnects on its own with Last-Event-ID and gets what it missed (CORS lets the header through)', async () => {
      const { project } = await createProject('Dropped');
      const url = `${api}/api/projects/${project.id}/events`;
      // What reached the server for the stream, as the server saw it.
      const seenByServer: { method?: string; lastEventId?: string }[] = [];
      const onRequest = (incoming: IncomingMessage) => {
        if (incoming.url?.startsWith(new URL(url).pathname)) {
          const header = incoming.headers['last-event-id'];
          seenByServer.push({
            method: incoming.method,
            lastEventId: typeof header === 'string' ? header : undefined,
          });
        }
      };
      t.server.on('request', onRequest);
      try {
        await streams.openEventSource('dropped', url);
        await rename(project.id, 'Dropped 1');
        const before = await latestId(t);
        await streams.waitForEvent('dropped', String(before));

        // Every open connection of the server goes, the stream's with it.
        t.server.closeAllConnections();
        await rename(project.id, 'Dropped 2');
        await rename(project.id, 'Dropped 3');
        const after = (await loggedAfter(t, before)).filter(
          (event) => event.projectId === project.id,
        );
        // The browser waits `retry: 2000` before it reconnects.
        await streams.waitForEvent('dropped', after[after.length - 1].id);

        const seen = (await streams.reader('dropped')).events;
        const resumed = seen.filter((event) => Number(event.id) > before);
        expect(idsOf(resumed)).toEqual(idsOf(after));
        expect(new Set(idsOf(seen)).size).toBe(seen.length);
        expect((await streams.reader('dropped')).opened).toBe(2);

        // The header came on a plain GET: Chromium sends Last-Event-ID
        // without a preflight (no OPTIONS reached the server).
        expect(seenByServer).toEqual([
          { method: 'GET', lastEventId: undefined },
          { method: 'GET', lastEventId: String(before) },
        ]);
        // The one console line: the connection the server dropped.
        expect(browser.problems).toEqual([
          expect.stringContaining('ERR_INCOMPLETE_CHUNKED_ENCODING'),
        ]);
      } finally {
        t.server.off('request', onRequest);
        await streams.close('dropped');
      }
    }, 30_000);
  });

  describe('with AUTH_MODE=oidc', () => {
    let provider: DevAuthProviderProcess;
    let t: TestApp;
    let api: string;
    let ana: string;
    let ben: string;

    beforeAll(async () => {
      provider = await DevAuthProviderProcess.startWithNewKey(
        'live-changes-browser',
      );
      t = await createTestApp({
        AUTH_MODE: 'oidc',
        AUTH_ISSUER: provider.issuer,
        AUTH_AUDIENCE: 'workspace-api',
        ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
        CORS_ORIGINS: browser.origin,
      });
      api = await listen(t);
      ana = await provider.token('ana');
      ben = await provider.token('ben');
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      await provider?.stop();
    });

    const createProject = async (token: string, name: string) =>
      (
        (
          await request(t.server)
            .post('/api/projects')
            .set('Authorization', `Bearer ${token}`)
            .send({ name })
            .expect(201)
        ).body as { project: { id: string } }
      ).project.id;

    it("a bearer-token fetch reader and a ticketed EventSource each see their user's changes, never another user's", async () => {
      await streams.openFetchReader('ana-fetch', `${api}/api/events`, {
        Authorization: `Bearer ${ana}`,
      });
      expect(await streams.reader('ana-fetch')).toMatchObject({
        status: 200,
        opened: 1,
        errors: [],
      });

      const ticket = await browser.fetchJson(`${api}/api/events/tickets`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${ana}`,
          'Content-Type': 'application/json',
        },
        body: '{}',
      });
      expect(ticket.status).toBe(200);
      const { url } = ticket.body as { url: string; expiresAt: string };
      expect(url).toContain('?ticket=');
      await streams.openEventSource('ana-ticket', url);
      expect(await streams.reader('ana-ticket')).toMatchObject({
        opened: 1,
        errors: [],
      });

      // Ben first, then Ana: once Ana's last event arrived, any of Ben's
      // would have arrived before it (a stream sends in id order).
      const bens = await createProject(ben, "Ben's");
      await request(t.server)
        .patch(`/api/projects/${bens}`)
        .set('Authorization', `Bearer ${ben}`)
        .send({ name: "Ben's, renamed" })
        .expect(200);
      const anas = await createProject(ana, "Ana's");
      const logged = await loggedAfter(t, 0);
      const anaLogged = logged.filter((event) => event.projectId === anas);
      expect(logged.some((event) => event.projectId === bens)).toBe(true);
      const lastOfAna = anaLogged[anaLogged.length - 1].id;

      for (const name of ['ana-fetch', 'ana-ticket']) {
        await streams.waitForEvent(name, lastOfAna);
        const seen: PageEvent[] = (await streams.reader(name)).events;
        expect(idsOf(seen)).toEqual(idsOf(anaLogged));
        expect(seen.map((event) => event.data.projectId)).not.toContain(bens);
        expect(seen.every((event) => event.data.userId === 'ana')).toBe(true);
      }
      await streams.close('ana-fetch');
      await streams.close('ana-ticket');
      expect(browser.problems).toEqual([]);
    });

    it('a fetch reader resumes with the Last-Event-ID header beside its token (the preflight allows it), and gets only what followed', async () => {
      const project = await createProject(ana, 'Resumed by header');
      const logged = (await loggedAfter(t, 0)).filter(
        (event) => event.projectId === project,
      );
      await request(t.server)
        .patch(`/api/projects/${project}`)
        .set('Authorization', `Bearer ${ana}`)
        .send({ name: 'Resumed by header, renamed' })
        .expect(200);
      const after = (await loggedAfter(t, Number(logged[0].id))).filter(
        (event) => event.userId === 'ana',
      );
      expect(after.length).toBeGreaterThan(0);

      await streams.openFetchReader('ana-resume', `${api}/api/events`, {
        Authorization: `Bearer ${ana}`,
        'Last-Event-ID': logged[0].id,
      });
      const opened = await streams.reader('ana-resume');
      expect(opened).toMatchObject({ status: 200, errors: [] });
      await streams.waitForEvent('ana-resume', after[after.length - 1].id);
      expect(idsOf((await streams.reader('ana-resume')).events)).toEqual(
        idsOf(after),
      );
      expect(browser.problems).toEqual([]);
    });

    it('an EventSource without a ticket is refused (401), so a page without one sees an error and no events', async () => {
      await streams.openEventSource('no-ticket', `${api}/api/events`);
      const reader = await streams.reader('no-ticket');
      expect(reader.opened).toBe(0);
      expect(reader.errors.length).toBeGreaterThan(0);
      expect(reader.events).toEqual([]);
      await streams.close('no-ticket');
    });
  });
});
