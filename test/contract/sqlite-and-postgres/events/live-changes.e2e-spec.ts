import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { DevImageApi } from '../../../support/fake-image-api';
import {
  EventStreamClient,
  type ChangeEventBody,
} from '../../../support/event-stream-client';
import { listen, until } from '../../../support/pending-request';
import { createProject } from '../../../support/project-fixtures';
import {
  LOGO_TASK_INPUT,
  pollUntil,
  startTask,
  waitForTask,
} from '../../../support/task-client';
import { metric } from '../../../support/metrics';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Live changes (GET /api/events, GET /api/projects/{id}/events) without
 * authentication: every change a project route would answer differently
 * after arrives as an event, in order, once; a stream resumed with
 * Last-Event-ID gets exactly what it missed; an id the log no longer (or
 * never) holds starts with `reset`; limits and slow readers are bounded.
 * Runs on SQLite and PostgreSQL, against a listening server.
 */

const types = (events: ChangeEventBody[]) => events.map((event) => event.type);
const ids = (events: ChangeEventBody[]) =>
  events.map((event) => Number(event.id));

describe('Live changes', () => {
  let t: TestApp;
  let base: string;
  let images: DevImageApi;
  const open: EventStreamClient[] = [];

  const stream = async (path: string, headers: Record<string, string> = {}) => {
    const client = await EventStreamClient.open(`${base}${path}`, headers);
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    images = await DevImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test-key-for-live-changes-0000',
      IMAGE_API_URL: images.url,
      EVENTS_HEARTBEAT_S: '1',
      EVENTS_CLIENT_LIMIT: '3',
    });
    base = await listen(t);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await t?.close();
    await images?.close();
  });

  it('answers a stream, advises a reconnection delay and keeps an idle stream alive with comments', async () => {
    const client = await stream('/api/events?userId=idle-user');
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe(
      'text/event-stream; charset=utf-8',
    );
    expect(client.headers['cache-control']).toBe('no-store, no-transform');
    await until(() => client.retries.length > 0, 'retry advice');
    expect(client.retries[0]).toBeGreaterThan(0);
    await until(() => client.comments.length > 0, 'a heartbeat', 5_000);
    expect(client.events).toEqual([]);
  });

  it("carries a project's changes to its stream and its owner's, each with the project's new ETag", async () => {
    const mine = await stream('/api/events?userId=owner-a');
    const others = await stream('/api/events?userId=owner-b');
    const project = await createProject(t, { userId: 'owner-a' });
    // A stream starts after the newest change this instance has seen; on
    // PostgreSQL the create's may still be on its way (the feed polls), so
    // the project's stream opens once the owner's has it.
    await mine.waitForChanges(1);
    const byProject = await stream(`/api/projects/${project.id}/events`);
    const patched = await request(t.server)
      .patch(`/api/projects/${project.id}`)
      .send({ name: 'Renamed' })
      .expect(200);
    await mine.waitForChanges(2);
    await byProject.waitForChanges(1);
    expect(types(mine.changes())).toEqual([
      'project.created',
      'project.updated',
    ]);
    const updated = mine.changes()[1];
    expect(updated).toMatchObject({
      projectId: project.id,
      userId: 'owner-a',
      data: { fields: ['name'], etag: patched.headers.etag },
    });
    expect(byProject.changes()).toEqual([updated]);
    // The frame's id and event lines say what its JSON says.
    expect(mine.events[1]).toMatchObject({
      id: updated.id,
      event: 'project.updated',
    });
    expect(others.changes()).toEqual([]);
  });

  it('shows a task, its agent, its section and its result moving, then a choice, a deletion and the end of the project', async () => {
    const project = await createProject(t, { userId: 'owner-c' });
    const client = await stream(`/api/projects/${project.id}/events`);
    const task = await startTask(t, project.id, {
      type: 'logo',
      input: LOGO_TASK_INPUT,
    });
    const done = await waitForTask(t, project.id, task.id);
    expect(done.status).toBe('SUCCEEDED');
    const assetId = done.assetIds[0];
    const logo = (
      await request(t.server).get(`/api/projects/${project.id}`).expect(200)
    ).body.project.sections.find(
      (section: { type: string }) => section.type === 'LOGO',
    ) as { id: string };
    await request(t.server)
      .put(`/api/projects/${project.id}/sections/${logo.id}/selection`)
      .send({ assetId })
      .expect(200);
    await request(t.server)
      .delete(`/api/projects/${project.id}/assets/${assetId}`)
      .expect(200);
    await request(t.server).delete(`/api/projects/${project.id}`).expect(200);
    await client.waitForEnd();
    const events = client.changes();
    const taskStatuses = events
      .filter((event) => event.type === 'task.updated')
      .map((event) => event.data.status);
    // Queued, claimed, its one result kept, succeeded.
    expect(taskStatuses).toEqual(['QUEUED', 'RUNNING', 'RUNNING', 'SUCCEEDED']);
    const agent = events
      .filter((event) => event.type === 'agent.updated')
      .map((event) => event.data.status);
    expect(agent).toEqual(['WORKING', 'IDLE']);
    const section = events
      .filter(
        (event) =>
          event.type === 'section.updated' && event.data.sectionId === logo.id,
      )
      .map((event) => event.data.status);
    expect(section).toEqual(['IN_PROGRESS', 'REVIEW', 'DONE', 'PENDING']);
    expect(
      events.find((event) => event.type === 'asset.created')?.data,
    ).toMatchObject({
      assetId,
      sectionId: logo.id,
    });
    expect(
      events.find((event) => event.type === 'asset.deleted')?.data,
    ).toMatchObject({
      assetId,
    });
    // Ids only grow; the stream ends after the project's deletion.
    expect(ids(events)).toEqual([...ids(events)].sort((a, b) => a - b));
    expect(new Set(ids(events)).size).toBe(events.length);
    expect(events.at(-1)).toMatchObject({
      type: 'project.deleted',
      data: {},
    });
    expect(client.ended).toBe(true);
  });

  it('resumes after a dropped connection with exactly the missed events, in order, none twice', async () => {
    const project = await createProject(t, { userId: 'owner-d' });
    const first = await stream(`/api/events?userId=owner-d`);
    await request(t.server)
      .patch(`/api/projects/${project.id}`)
      .send({ name: 'One' })
      .expect(200);
    await first.waitForChanges(1);
    const seen = first.changes().at(-1)!.id;
    await first.close();
    const missed: string[] = [];
    for (const name of ['Two', 'Three', 'Four']) {
      const response = await request(t.server)
        .patch(`/api/projects/${project.id}`)
        .send({ name })
        .expect(200);
      missed.push(response.headers.etag);
    }
    const byHeader = await stream('/api/events?userId=owner-d', {
      'Last-Event-ID': seen,
    });
    const byQuery = await stream(
      `/api/events?userId=owner-d&lastEventId=${seen}`,
    );
    await request(t.server)
      .patch(`/api/projects/${project.id}`)
      .send({ name: 'Five' })
      .expect(200);
    for (const resumed of [byHeader, byQuery]) {
      await resumed.waitForChanges(4);
      const events = resumed.changes();
      expect(events.map((event) => event.data.etag)).toEqual([
        ...missed,
        events[3].data.etag,
      ]);
      expect(events.map((event) => event.data.fields)).toEqual(
        Array(4).fill(['name']),
      );
      expect(Number(events[0].id)).toBeGreaterThan(Number(seen));
      expect(new Set(ids(events)).size).toBe(4);
      expect(ids(events)).toEqual([...ids(events)].sort((a, b) => a - b));
    }
    expect(
      await metric(t, 'event_stream_replays_total'),
    ).toBeGreaterThanOrEqual(2);
  });

  it('starts with reset when Last-Event-ID names an event the log never gave, then goes on', async () => {
    const client = await stream('/api/events?userId=owner-e', {
      'Last-Event-ID': '99999999999',
    });
    await until(() => client.events.length > 0, 'the reset event');
    expect(client.events[0].event).toBe('reset');
    const reset = JSON.parse(client.events[0].data!) as {
      reason: string;
      lastEventId: string;
    };
    expect(reset.reason).toBe('unknown');
    expect(client.events[0].id).toBe(reset.lastEventId);
    await createProject(t, { userId: 'owner-e' });
    await client.waitForChanges(1);
    expect(Number(client.changes()[0].id)).toBeGreaterThan(
      Number(reset.lastEventId),
    );
  });

  it('answers 404 for the stream of a project that does not exist', async () => {
    const response = await request(t.server)
      .get('/api/projects/019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20/events')
      .expect(404);
    expect(response.body).toEqual({
      error: 'Project not found',
      code: 'project_not_found',
    });
  });

  it('refuses a stream beyond EVENTS_CLIENT_LIMIT with 429, Retry-After and its code, and takes one again once another closes', async () => {
    const held = [
      await stream('/api/events?userId=limit'),
      await stream('/api/events?userId=limit'),
      await stream('/api/events?userId=limit'),
    ];
    const refused = await request(t.server).get('/api/events?userId=limit');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.body).toMatchObject({ code: 'too_many_streams' });
    await held[0].close();
    let again: EventStreamClient | undefined;
    for (let attempt = 0; attempt < 100 && again?.status !== 200; attempt++) {
      again = await stream('/api/events?userId=limit');
      if (again.status !== 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(again?.status).toBe(200);
  });

  it('holds no slot for a client that leaves while its stream opens', async () => {
    for (let i = 0; i < 20; i++) {
      const req = httpRequest(`${base}/api/events?userId=leaver`, {
        agent: false,
        headers: { 'Last-Event-ID': '0' },
      });
      req.on('error', () => undefined);
      req.end();
      // Gone at once, or after its first bytes: both are lost streams.
      if (i % 2 === 0) setImmediate(() => req.destroy());
      else req.on('response', (response) => response.destroy());
    }
    // Leavers may still reach the server after this: their slots come back
    // as each one is seen gone, so three streams open once they all have.
    const statuses = await pollUntil(
      async () => {
        const tried = [
          await EventStreamClient.open(`${base}/api/events?userId=leaver`),
          await EventStreamClient.open(`${base}/api/events?userId=leaver`),
          await EventStreamClient.open(`${base}/api/events?userId=leaver`),
        ];
        open.push(...tried);
        const codes = tried.map((client) => client.status);
        if (codes.some((code) => code !== 200)) {
          await Promise.all(tried.map((client) => client.close()));
        }
        return codes;
      },
      (codes) => codes.every((code) => code === 200),
    );
    expect(statuses).toEqual([200, 200, 200]);
    // And once the closed attempts are seen gone, only those three remain.
    await pollUntil(
      () => metric(t, 'event_streams_open'),
      (streams) => streams === 3,
    );
  });

  it('cuts a client that stops reading during its replay once it has taken nothing for EVENTS_REPLAY_STALL_S, and counts it', async () => {
    const slow = await createTestApp({
      EVENTS_BUFFER_LIMIT_BYTES: '65536',
      EVENTS_REPLAY_STALL_S: '1',
    });
    try {
      const slowBase = await listen(slow);
      const project = await createProject(slow, { userId: 'slow' });
      // 800 events of ~10 KB, far more than the sockets on the way hold.
      const padding = 'x'.repeat(10_000);
      const at = new Date().toISOString().replace('T', ' ').slice(0, 23);
      const postgres = slow.dataSource.options.type === 'postgres';
      for (let batch = 0; batch < 8; batch++) {
        const values = Array.from({ length: 100 }, () =>
          postgres
            ? `('project.updated', $1, 'slow', now(), $2)`
            : `('project.updated', ?, 'slow', '${at}', ?)`,
        );
        const params = postgres
          ? [project.id, JSON.stringify({ padding })]
          : values.flatMap(() => [project.id, JSON.stringify({ padding })]);
        await slow.dataSource.query(
          `INSERT INTO "change_events" ("type", "projectId", "userId", "at", "data") VALUES ${values.join(', ')}`,
          params,
        );
      }
      const client = await EventStreamClient.open(
        `${slowBase}/api/events?userId=slow`,
        { 'Last-Event-ID': '0' },
      );
      client.pause();
      // A paused client reads nothing, not even the reset: the server's
      // count says when it cut the stream.
      await pollUntil(
        () =>
          metric(slow, 'event_streams_closed_total', 'reason="slow_reader"'),
        (cut) => cut === 1,
      );
      expect(await metric(slow, 'event_streams_open')).toBe(0);
      await client.close();
    } finally {
      await slow.close();
    }
  });

  it('closes its streams with a short retry advice when the process stops, and refuses new ones meanwhile', async () => {
    const stopping = await createTestApp();
    const stoppingBase = await listen(stopping);
    const client = await EventStreamClient.open(
      `${stoppingBase}/api/events?userId=shutdown`,
    );
    await until(() => client.retries.length === 1, 'the first retry advice');
    await stopping.close();
    await client.waitForEnd();
    expect(client.retries).toEqual([2000, 250]);
  });
});

describe('Live changes past the retention', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ EVENTS_RETENTION_S: '1' });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('starts with reset when Last-Event-ID names an event purged after EVENTS_RETENTION_S, then goes on', async () => {
    const project = await createProject(t, { userId: 'owner-r' });
    const first = await EventStreamClient.open(
      `${base}/api/events?userId=owner-r`,
      { 'Last-Event-ID': '0' },
    );
    await first.waitForChanges(1);
    const oldId = first.changes()[0].id;
    await first.close();
    await request(t.server)
      .patch(`/api/projects/${project.id}`)
      .send({ name: 'Later' })
      .expect(200);
    // The purge runs every second here; wait until it has passed both events.
    const purged = async () => {
      const rows = await t.dataSource.query<
        Array<{ throughId: number | string }>
      >('SELECT "throughId" FROM "change_events_purged"');
      return Number(rows[0].throughId);
    };
    for (
      let tries = 0;
      tries < 200 && (await purged()) <= Number(oldId);
      tries++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await purged()).toBeGreaterThan(Number(oldId));
    const resumed = await EventStreamClient.open(
      `${base}/api/events?userId=owner-r`,
      { 'Last-Event-ID': oldId },
    );
    try {
      await until(() => resumed.events.length > 0, 'the reset event');
      expect(resumed.events[0].event).toBe('reset');
      expect(JSON.parse(resumed.events[0].data!)).toMatchObject({
        reason: 'purged',
      });
      await request(t.server)
        .patch(`/api/projects/${project.id}`)
        .send({ name: 'Latest' })
        .expect(200);
      await resumed.waitForChanges(1);
      expect(resumed.changes()[0].data).toMatchObject({ fields: ['name'] });
      expect(await metric(t, 'event_stream_resets_total')).toBe(1);
    } finally {
      await resumed.close();
    }
  });
});
