import request from 'supertest';
import {
  applyChange,
  versionOf,
  type PageProject,
} from '../../../support/apply-change';
import { keepLogo } from '../../../support/asset-client';
import { documentSchemas } from '../../../support/event-schemas';
import {
  EventStreamClient,
  type ChangeEventBody,
} from '../../../support/event-stream-client';
import { DevImageApi } from '../../../support/fake-image-api';
import { loadOpenApiDocument } from '../../../support/openapi-responses';
import { listen, until } from '../../../support/pending-request';
import { createProject } from '../../../support/project-fixtures';
import {
  LOGO_TASK_INPUT,
  startTask,
  waitForTask,
} from '../../../support/task-client';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * What the live-change events carry: what changed, as the routes' answers
 * show it, so a page applies them without refetching the project; each
 * type's data as the OpenAPI document's schema for that type says; a
 * payload over the size bound without its bulky part, marked `truncated`;
 * events recorded before the log carried what changed still stream.
 * Runs on SQLite and PostgreSQL.
 */

const document = loadOpenApiDocument();
const validate = documentSchemas(document);

/** The schema the document maps an event's `type` to. */
const schemaOfType = (type: string): string => {
  const union = document.components!.schemas!.StreamEventDto as {
    discriminator: { mapping: Record<string, string> };
  };
  return union.discriminator.mapping[type].split('/').pop()!;
};

describe('Change events carry what changed', () => {
  let t: TestApp;
  let base: string;
  let images: DevImageApi;
  const open: EventStreamClient[] = [];

  const stream = async (path: string, headers: Record<string, string> = {}) => {
    const client = await EventStreamClient.open(`${base}${path}`, headers);
    open.push(client);
    return client;
  };

  const readProject = async (id: string) => {
    const response = await request(base).get(`/api/projects/${id}`).expect(200);
    return {
      project: (response.body as { project: PageProject }).project,
      etag: response.headers.etag,
    };
  };

  /** Waits until the stream holds the event that brought the project to `etag`. */
  const waitForVersion = (client: EventStreamClient, etag: string) =>
    until(
      () =>
        client
          .changes()
          .some((event) => versionOf(event.data.etag) >= versionOf(etag)),
      `the event of version ${etag}`,
    );

  beforeAll(async () => {
    images = await DevImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test-key-for-change-payloads-00',
      IMAGE_API_URL: images.url,
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

  it('applying the events of a flow (create, PATCH, a logo task, a kept logo, a choice, its deletion) to the first answer gives what a refetch gives', async () => {
    const userId = 'payload-flow';
    const client = await stream(`/api/events?userId=${userId}`);
    const created = await createProject(t, { userId });
    const first = await readProject(created.id);
    const page = first.project;

    await request(base)
      .patch(`/api/projects/${created.id}`)
      .send({ name: 'Renamed', description: 'Now with a description' })
      .expect(200);
    const task = await startTask(t, created.id, {
      type: 'logo',
      input: LOGO_TASK_INPUT,
    });
    expect((await waitForTask(t, created.id, task.id)).status).toBe(
      'SUCCEEDED',
    );
    const kept = await keepLogo(t, created.id).expect(201);
    const logo = page.sections.find((s) => s.type === 'LOGO')!;
    const chosen = await request(base)
      .put(`/api/projects/${created.id}/sections/${logo.id}/selection`)
      .send({ assetId: (kept.body as { asset: { id: string } }).asset.id })
      .expect(200);
    expect(chosen.headers.etag).toBeDefined();
    // The chosen logo deleted: the section's choice goes with it.
    const keptId = (kept.body as { asset: { id: string } }).asset.id;
    const deleted = await request(base)
      .delete(`/api/projects/${created.id}/assets/${keptId}`)
      .expect(200);
    await waitForVersion(client, deleted.headers.etag);

    const refetched = await readProject(created.id);
    const after = client
      .changes()
      .filter(
        (event) =>
          event.projectId === created.id &&
          versionOf(event.data.etag) > versionOf(first.etag),
      );
    for (const event of after) expect(applyChange(page, event)).toBe('applied');

    expect(after.at(-1)!.data.etag).toBe(refetched.etag);
    expect(page.sections).toEqual(refetched.project.sections);
    expect(page.assets).toEqual(refetched.project.assets);
    expect(page.tasks).toEqual(refetched.project.tasks);
    expect(page.name).toBe(refetched.project.name);
    expect(page.description).toBe(refetched.project.description);
    expect(page.updatedAt).toBe(refetched.project.updatedAt);
    // The asset urls are absolute, for the origin the stream was opened at.
    for (const asset of page.assets) {
      expect(asset.url).toMatch(new RegExp(`^${base}/api/projects/`));
    }
  });

  it("every event type's data validates against its own schema in the document", async () => {
    const userId = 'payload-schemas';
    const client = await stream(`/api/events?userId=${userId}`);
    const project = await createProject(t, { userId });
    await request(base)
      .patch(`/api/projects/${project.id}`)
      .send({ description: null })
      .expect(200);
    const task = await startTask(t, project.id, {
      type: 'logo',
      input: LOGO_TASK_INPUT,
    });
    const done = await waitForTask(t, project.id, task.id);
    await request(base)
      .delete(`/api/projects/${project.id}/assets/${done.assetIds[0]}`)
      .expect(200);
    // A run: its creation is a run.updated (and so is each move after).
    await request(base)
      .post(`/api/projects/${project.id}/runs`)
      .send({ steps: ['logo'] })
      .expect(202);
    await request(base).delete(`/api/projects/${project.id}`).expect(200);
    await until(
      () => client.changes().some((e) => e.type === 'project.deleted'),
      'project.deleted',
    );
    // A reset is an item of the stream too.
    const reset = await stream(`/api/events?userId=${userId}`, {
      'Last-Event-ID': '999999999999',
    });
    await until(() => reset.events.length > 0, 'the reset event');

    const items = [
      ...client.changes(),
      JSON.parse(reset.events[0].data!) as ChangeEventBody,
    ];
    const seen = new Set(items.map((item) => item.type));
    expect([...seen].sort()).toEqual(
      Object.keys(
        (
          document.components!.schemas!.StreamEventDto as {
            discriminator: { mapping: Record<string, string> };
          }
        ).discriminator.mapping,
      ).sort(),
    );
    for (const item of items) {
      expect([item.type, validate(schemaOfType(item.type), item)]).toEqual([
        item.type,
        undefined,
      ]);
      expect([item.type, validate('StreamEventDto', item)]).toEqual([
        item.type,
        undefined,
      ]);
    }
    // The bulky parts are there, as the routes answer them.
    const succeeded = client
      .changes()
      .find((e) => e.type === 'task.updated' && e.data.status === 'SUCCEEDED')!;
    expect(succeeded.data.task).toMatchObject({
      id: task.id,
      status: 'SUCCEEDED',
      assetIds: done.assetIds,
    });
  });

  it('a change over the size bound is sent without its bulky part, marked truncated', async () => {
    const userId = 'payload-large';
    const client = await stream(`/api/events?userId=${userId}`);
    const project = await createProject(t, { userId });
    const patched = await request(base)
      .patch(`/api/projects/${project.id}`)
      .send({ description: 'x'.repeat(20_000) })
      .expect(200);
    await waitForVersion(client, patched.headers.etag);
    const updated = client
      .changes()
      .find((event) => event.type === 'project.updated')!;
    expect(updated.data).toEqual({
      fields: ['description'],
      truncated: true,
      etag: patched.headers.etag,
    });
    expect(validate('StreamEventDto', updated)).toBeUndefined();
  });

  it('events recorded before the log carried what changed still stream, marked truncated', async () => {
    const userId = 'payload-old-rows';
    const project = await createProject(t, { userId });
    const postgres = t.dataSource.options.type === 'postgres';
    const params = postgres
      ? '$1, $2, $3, CURRENT_TIMESTAMP, $4'
      : "?, ?, ?, strftime('%Y-%m-%d %H:%M:%f', 'now'), ?";
    const insert = (type: string, data: object) =>
      t.dataSource.query(
        `INSERT INTO "change_events" ("type", "projectId", "userId", "at", "data") VALUES (${params})`,
        [type, project.id, userId, JSON.stringify(data)],
      );
    const client = await stream(`/api/events?userId=${userId}`, {
      'Last-Event-ID': '0',
    });
    await insert('asset.created', {
      assetId: 'a-1',
      sectionId: null,
      kind: 'logo',
      etag: '"2"',
    });
    await insert('task.updated', {
      taskId: 't-1',
      type: 'logo',
      status: 'QUEUED',
      attempts: 0,
      etag: '"3"',
    });
    await insert('project.updated', { fields: ['name'], etag: '"4"' });
    await client.waitForChanges(4);
    const old = client.changes().slice(1);
    expect(old.map((event) => event.type)).toEqual([
      'asset.created',
      'task.updated',
      'project.updated',
    ]);
    for (const event of old) {
      expect(event.data.truncated).toBe(true);
      expect(validate('StreamEventDto', event)).toBeUndefined();
    }
  });
});
