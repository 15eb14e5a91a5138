import request from 'supertest';
import { EventStreamClient } from '../../../support/event-stream-client';
import { listen } from '../../../support/pending-request';
import { createProject } from '../../../support/project-fixtures';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * A stream resuming far behind gets everything the log still holds: the
 * replay goes out at the pace the client reads it (waiting for the socket
 * instead of filling the buffer and being cut) and reads the log a batch
 * at a time. Runs on SQLite and PostgreSQL, against a listening server.
 */

const BEHIND = 1_500;
const PATCHES_AT_ONCE = 10;

describe('Live changes: resuming far behind', () => {
  let t: TestApp;
  let base: string;
  let client: EventStreamClient | undefined;

  beforeAll(async () => {
    t = await createTestApp({ EVENTS_HEARTBEAT_S: '1' });
    base = await listen(t);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it(`delivers all ${BEHIND} events, in order, to a stream resuming ${BEHIND} events behind`, async () => {
    const project = await createProject(t, { userId: 'deep-resume' });
    // The resume point: the project's creation, before any PATCH.
    const created = await EventStreamClient.open(
      `${base}/api/events?userId=deep-resume`,
      { 'Last-Event-ID': '0' },
    );
    await created.waitForChanges(1);
    const resumeFrom = created.changes()[0].id;
    await created.close();

    for (let done = 0; done < BEHIND; done += PATCHES_AT_ONCE) {
      await Promise.all(
        Array.from({ length: PATCHES_AT_ONCE }, (_, i) =>
          request(t.server)
            .patch(`/api/projects/${project.id}`)
            .send({ name: `Name ${done + i}` })
            .expect(200),
        ),
      );
    }

    client = await EventStreamClient.open(
      `${base}/api/events?userId=deep-resume`,
      { 'Last-Event-ID': resumeFrom },
    );
    expect(client.status).toBe(200);
    await client.waitForChanges(BEHIND, `${BEHIND} replayed events`);
    const changes = client.changes();
    expect(changes).toHaveLength(BEHIND);
    expect(changes.every((event) => event.type === 'project.updated')).toBe(
      true,
    );
    const ids = changes.map((event) => Number(event.id));
    expect(ids[0]).toBeGreaterThan(Number(resumeFrom));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(BEHIND);
    expect(client.ended).toBe(false);
  });
});
