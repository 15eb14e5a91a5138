import request from 'supertest';
import { createProject } from '../../../support/project-fixtures';
import { listen } from '../../../support/pending-request';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * ETag, If-None-Match and If-Match on projects (RFC 9110): a client that
 * sends none of them sees the unconditional behaviour; one that does never loses an
 * edit to a concurrent one. Runs on SQLite and PostgreSQL.
 */

const PRECONDITION_FAILED = {
  error: 'Precondition failed',
  code: 'precondition_failed',
};

describe('conditional requests on projects', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t);
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  const path = (id: string) => `/api/projects/${id}`;
  const storedName = async (id: string) => {
    const [row] = await t.dataSource.query<Array<{ name: string }>>(
      `SELECT "name" FROM "projects" WHERE "id" = '${id}'`,
    );
    return row?.name;
  };

  it('POST, GET and PATCH answer with a strong ETag of the version; a PATCH moves it on', async () => {
    const created = await request(t.server)
      .post('/api/projects')
      .send({ name: 'Tagged', userId: 'u' })
      .expect(201);
    const id: string = created.body.project.id;
    expect(created.headers.etag).toBe('"1"');
    const fetched = await request(t.server).get(path(id)).expect(200);
    expect(fetched.headers.etag).toBe('"1"');
    const patched = await request(t.server)
      .patch(path(id))
      .send({ name: 'Renamed' })
      .expect(200);
    expect(patched.headers.etag).toBe('"2"');
    expect((await request(t.server).get(path(id))).headers.etag).toBe('"2"');
  });

  it('GET with If-None-Match of the current ETag is 304 with no body', async () => {
    const { id } = await createProject(t);
    const res = await request(t.server)
      .get(path(id))
      .set('If-None-Match', '"1"')
      .expect(304);
    expect(res.text).toBe('');
    expect(res.headers.etag).toBe('"1"');
  });

  it.each([
    ['a weak twin of the current tag', 'W/"1"', 304],
    ['a list holding the current tag', '"7", "1"', 304],
    ['*', '*', 304],
    ['a stale tag', '"0"', 200],
    ['a malformed tag', 'garbage', 200],
  ])(
    'GET with If-None-Match of %s answers %i',
    async (_what, header, status) => {
      const { id } = await createProject(t);
      await request(t.server)
        .get(path(id))
        .set('If-None-Match', header)
        .expect(status);
    },
  );

  it('GET with If-None-Match after a PATCH is 200 with the new body', async () => {
    const { id } = await createProject(t);
    await request(t.server).patch(path(id)).send({ name: 'New' }).expect(200);
    const res = await request(t.server)
      .get(path(id))
      .set('If-None-Match', '"1"')
      .expect(200);
    expect(res.body.project.name).toBe('New');
  });

  it('GET with If-None-Match of an unknown id is still 404 {error:"Project not found"}', async () => {
    const res = await request(t.server)
      .get(path('019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21'))
      .set('If-None-Match', '"1"')
      .expect(404);
    expect(res.body).toEqual({
      error: 'Project not found',
      code: 'project_not_found',
    });
  });

  it('two clients GET then PATCH with If-Match: one 200, one 412, and the stored project is the winner’s', async () => {
    const { id } = await createProject(t);
    const tagA = (await request(t.server).get(path(id))).headers.etag;
    const tagB = (await request(t.server).get(path(id))).headers.etag;
    await request(t.server)
      .patch(path(id))
      .set('If-Match', tagA)
      .send({ name: 'From A' })
      .expect(200);
    const lost = await request(t.server)
      .patch(path(id))
      .set('If-Match', tagB)
      .send({ name: 'From B' })
      .expect(412);
    expect(lost.body).toEqual(PRECONDITION_FAILED);
    expect(await storedName(id)).toBe('From A');
  });

  it('20 concurrent PATCHes with the same If-Match: exactly one succeeds', async () => {
    const { id } = await createProject(t);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${base}${path(id)}`, {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/json', 'If-Match': '"1"' },
          body: JSON.stringify({ name: `Edit ${i}` }),
        }).then(async (res) => ({
          status: res.status,
          body: (await res.json()) as {
            project?: { name: string };
            error?: string;
          },
        })),
      ),
    );
    const winners = statuses.filter((s) => s.status === 200);
    expect(winners).toHaveLength(1);
    expect(statuses.filter((s) => s.status === 412)).toHaveLength(19);
    expect(await storedName(id)).toBe(winners[0].body.project?.name);
    expect((await request(t.server).get(path(id))).headers.etag).toBe('"2"');
  });

  it.each([
    ['a weak tag (If-Match compares strongly)', 'W/"1"'],
    ['a malformed tag', 'garbage'],
    ['a stale tag', '"5"'],
  ])(
    'PATCH with If-Match of %s is 412 and changes nothing',
    async (_what, header) => {
      const { id } = await createProject(t, { name: 'Original' });
      await request(t.server)
        .patch(path(id))
        .set('If-Match', header)
        .send({ name: 'Changed' })
        .expect(412);
      expect(await storedName(id)).toBe('Original');
    },
  );

  it('PATCH with If-Match: * applies to an existing project; on an unknown id it is 412', async () => {
    const { id } = await createProject(t);
    await request(t.server)
      .patch(path(id))
      .set('If-Match', '*')
      .send({ name: 'Starred' })
      .expect(200);
    await request(t.server)
      .patch(path('019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21'))
      .set('If-Match', '*')
      .send({ name: 'Nobody' })
      .expect(412);
  });

  it('PATCH with If-Match and a body that cannot be applied keeps the route’s 500', async () => {
    const { id } = await createProject(t);
    const res = await request(t.server)
      .patch(path(id))
      .set('If-Match', '"1"')
      .send({ sections: [] })
      .expect(500);
    expect(res.body).toEqual({
      error: 'Failed to update project',
      code: 'invalid_input',
    });
  });

  it('without If-Match, PATCH and DELETE of an unknown id keep the route’s 500', async () => {
    const unknown = path('019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21');
    await request(t.server).patch(unknown).send({ name: 'x' }).expect(500);
    await request(t.server).delete(unknown).expect(500);
  });

  it('DELETE with a stale If-Match is 412 and deletes nothing; with the current one it deletes', async () => {
    const { id } = await createProject(t, { name: 'Kept' });
    await request(t.server).patch(path(id)).send({ name: 'Kept' }).expect(200);
    const stale = await request(t.server)
      .delete(path(id))
      .set('If-Match', '"1"')
      .expect(412);
    expect(stale.body).toEqual(PRECONDITION_FAILED);
    expect(await storedName(id)).toBe('Kept');
    await request(t.server)
      .delete(path(id))
      .set('If-Match', '"2"')
      .expect(200, { success: true });
    await request(t.server).get(path(id)).expect(404);
  });
});
