import { connect, type Socket } from 'node:net';
import request from 'supertest';
import { EventStreamClient } from '../../../support/event-stream-client';
import { listen, until } from '../../../support/pending-request';
import { createProject } from '../../../support/project-fixtures';
import { metric } from '../../../support/metrics';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * The streams that cost the most: replay is paced per client
 * (EVENTS_REPLAY_RATE) and still delivered whole, and unscoped streams
 * without a proven caller are capped per address and per /24. Runs on
 * SQLite and PostgreSQL.
 */

/** Appends `count` events (renames) to `projectId`'s log, 20 at a time. */
async function rename(t: TestApp, projectId: string, count: number) {
  for (let done = 0; done < count; done += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, count - done) }, (_, i) =>
        request(t.server)
          .patch(`/api/projects/${projectId}`)
          .send({ name: `Name ${done + i}` })
          .expect(200),
      ),
    );
  }
}

/** A raw stream request from `localAddress`; resolves with its status line. */
function rawStream(
  port: number,
  localAddress: string,
  path: string,
): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    });
    let head = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      if (head.includes('\r\n')) return;
      head += chunk;
      if (head.includes('\r\n')) {
        resolve({ status: Number(head.split(' ')[1]), socket });
      }
    });
    socket.on('error', reject);
  });
}

describe('Live changes: costly streams', () => {
  let t: TestApp;
  let base: string;
  const open: EventStreamClient[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      EVENTS_REPLAY_RATE: '1500',
      EVENTS_UNSCOPED_ADDRESS_LIMIT: '2',
      EVENTS_UNSCOPED_NETWORK_LIMIT: '20',
      EVENTS_INSTANCE_LIMIT: '200',
    });
    base = await listen(t);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
    for (const socket of sockets.splice(0)) socket.destroy();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("paces one client's replays to EVENTS_REPLAY_RATE across its streams, and still delivers them whole", async () => {
    const project = await createProject(t, { userId: 'deep-b' });
    const first = await EventStreamClient.open(
      `${base}/api/events?userId=deep-b`,
    );
    open.push(first);
    await request(t.server)
      .patch(`/api/projects/${project.id}`)
      .send({ name: 'Start' })
      .expect(200);
    await first.waitForChanges(1);
    const seen = first.changes().at(-1)!.id;
    await first.close();
    await rename(t, project.id, 1_000);
    const pacedBefore = await metric(
      t,
      'event_stream_replay_paced_seconds_total',
    );
    const eventsBefore = await metric(
      t,
      'event_stream_replay_paced_events_total',
    );
    const replaysBefore = await metric(t, 'event_stream_replays_total');
    // Three streams of one client: 3,000 events at 1,500 a second, with a
    // burst of 1,500 at most, cannot all be sent at once. How long the
    // replays take is a figure of the events bench, not of this test.
    const resumed = await Promise.all(
      [0, 1, 2].map(() =>
        EventStreamClient.open(`${base}/api/events?userId=deep-b`, {
          'Last-Event-ID': seen,
        }),
      ),
    );
    open.push(...resumed);
    await until(
      () => resumed.every((client) => client.changes().length >= 1_000),
      'the paced replays',
      30_000,
    );
    for (const client of resumed) expect(client.changes()).toHaveLength(1_000);
    const paced =
      (await metric(t, 'event_stream_replay_paced_seconds_total')) -
      pacedBefore;
    const pacedEvents =
      (await metric(t, 'event_stream_replay_paced_events_total')) -
      eventsBefore;
    // Whatever the machine's speed, the server held back at least what
    // passed the burst, and waited for it (its own clock: the waits pay
    // back the debt less what the sending took, so no fixed sum).
    expect(
      (await metric(t, 'event_stream_replays_total')) - replaysBefore,
    ).toBe(3);
    expect(pacedEvents).toBeGreaterThanOrEqual(1_500);
    expect(paced).toBeGreaterThan(0);
  }, 60_000);

  it('caps unscoped streams without a proven caller per address and per /24 (429 too_many_streams), while another /24 still gets its stream', async () => {
    const { port } = new URL(base);
    const statuses: number[] = [];
    // 25 addresses of 127.0.0.0/24, three streams each.
    for (let host = 2; host < 27; host++) {
      for (let i = 0; i < 3; i++) {
        const { status, socket } = await rawStream(
          Number(port),
          `127.0.0.${host}`,
          '/api/events',
        );
        sockets.push(socket);
        statuses.push(status);
      }
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(55);
    expect(
      await metric(t, 'event_streams_unscoped_refused_total', 'by="address"'),
    ).toBeGreaterThan(0);
    expect(
      await metric(t, 'event_streams_unscoped_refused_total', 'by="network"'),
    ).toBeGreaterThan(0);
    // 127.0.0.1 is in the full /24: the documented refusal, JSON with its
    // code and Retry-After.
    const refused = await request(base).get('/api/events').expect(429);
    expect(refused.body.code).toBe('too_many_streams');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const other = await rawStream(Number(port), '127.0.1.5', '/api/events');
    sockets.push(other.socket);
    expect(other.status).toBe(200);
    // A scoped stream is not an unscoped one: not counted against the cap.
    const scoped = await rawStream(
      Number(port),
      '127.0.0.2',
      '/api/events?userId=deep-c',
    );
    sockets.push(scoped.socket);
    expect(scoped.status).toBe(200);
  }, 60_000);
});
