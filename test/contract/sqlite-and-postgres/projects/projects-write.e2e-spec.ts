import request from 'supertest';
import {
  countRows,
  createProject,
  insertAsset,
  insertTask,
} from '../../../support/project-fixtures';
import { createTestApp, TestApp } from '../../../support/test-app';

const UNKNOWN_ID = '01a20156-1889-7738-abe7-ae7705cfc71f';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PATCH /api/projects/{id}', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  const patch = (id: string, body: unknown) =>
    request(t.server)
      .patch(`/api/projects/${id}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));

  const fetch = async (id: string) =>
    (await request(t.server).get(`/api/projects/${id}`).expect(200)).body
      .project;

  it('changes the given fields and returns 200 {project} with sections and agents', async () => {
    const project = await createProject(t, { name: 'Old', userId: 'u1' });
    const { body } = await patch(project.id, {
      name: 'New',
      description: 'Now described',
      userId: 'u2',
    }).expect(200);
    expect(body).toEqual({ project: expect.any(Object) });
    expect(body.project).toMatchObject({
      id: project.id,
      name: 'New',
      description: 'Now described',
      userId: 'u2',
      createdAt: project.createdAt,
    });
    expect(body.project.sections).toHaveLength(8);
    expect(body.project.agents).toHaveLength(3);
    expect(await fetch(project.id)).toMatchObject({
      name: 'New',
      description: 'Now described',
      userId: 'u2',
    });
  });

  it('leaves fields that are not listed unchanged', async () => {
    const project = await createProject(t, {
      name: 'Keep',
      description: 'keep me',
      userId: 'u1',
    });
    await patch(project.id, { name: 'Renamed' }).expect(200);
    expect(await fetch(project.id)).toMatchObject({
      name: 'Renamed',
      description: 'keep me',
      userId: 'u1',
    });
  });

  it('sets updatedAt to the current time on every update', async () => {
    const project = await createProject(t);
    await sleep(5);
    const before = Date.now();
    const { body } = await patch(project.id, {}).expect(200);
    const updatedAt = Date.parse(body.project.updatedAt);
    expect(updatedAt).toBeGreaterThanOrEqual(before);
    expect(updatedAt).toBeGreaterThan(Date.parse(project.updatedAt));
    expect((await fetch(project.id)).updatedAt).toBe(body.project.updatedAt);
  });

  it('applies a 150-character name and a 600-character description as given (no length rule), and a GET returns both exactly', async () => {
    const project = await createProject(t, { name: 'Short' });
    const changes = { name: 'N'.repeat(150), description: 'D'.repeat(600) };
    const { body } = await patch(project.id, changes).expect(200);
    expect(body.project).toMatchObject(changes);
    expect(await fetch(project.id)).toMatchObject(changes);
  });

  it('applies an empty name as given', async () => {
    const project = await createProject(t, { name: 'Named' });
    const { body } = await patch(project.id, { name: '' }).expect(200);
    expect(body.project.name).toBe('');
    expect((await fetch(project.id)).name).toBe('');
  });

  it('stores a name of nearly BODY_LIMIT (1 MB) exactly, and the fetch, the streamed list and a page carry it whole', async () => {
    const project = await createProject(t, { userId: 'long' });
    // Non-ASCII too (5 bytes of UTF-8 per pair): 950 KB of the 1 MiB limit.
    const name = 'é€'.repeat(50_000) + 'n'.repeat(700_000);
    await patch(project.id, { name }).expect(200);
    expect((await fetch(project.id)).name).toBe(name);
    const list = await request(t.server)
      .get('/api/projects?userId=long')
      .expect(200);
    expect(list.body.projects.map((p: { name: string }) => p.name)).toEqual([
      name,
    ]);
    const page = await request(t.server)
      .get('/api/projects?userId=long&limit=1')
      .expect(200);
    expect(page.body.projects[0].name).toBe(name);
  });

  it("accepts values at create's limits: a 100-character name, a 500-character description, a 255-character userId", async () => {
    const project = await createProject(t);
    const changes = {
      name: 'n'.repeat(100),
      description: 'd'.repeat(500),
      // Counted as create counts: a surrogate pair is one character.
      userId: '😀'.repeat(255),
    };
    const { body } = await patch(project.id, changes).expect(200);
    expect(body.project).toMatchObject(changes);
    expect(await fetch(project.id)).toMatchObject(changes);
  });

  // Found by the reliability fuzz on PostgreSQL (see PROJECT_USER_ID_MAX).
  it('fails with 500 and changes nothing for a userId over 255 characters, on every database', async () => {
    const project = await createProject(t, { userId: 'before' });
    const { body } = await patch(project.id, {
      userId: Array.from({ length: 3_000 }, (_, i) =>
        String.fromCharCode(0x4e00 + ((i * 7919) % 20_000)),
      ).join(''),
    }).expect(500);
    expect(body).toEqual({
      error: 'Failed to update project',
      code: 'invalid_input',
    });
    expect((await fetch(project.id)).userId).toBe('before');
  });

  it('accepts a null description, as given', async () => {
    const project = await createProject(t, { description: 'x' });
    const { body } = await patch(project.id, { description: null }).expect(200);
    expect(body.project).toMatchObject({ description: null });
    expect((await fetch(project.id)).description).toBeNull();
  });

  it('ignores the read-only fields id, createdAt and updatedAt', async () => {
    const project = await createProject(t, { name: 'A' });
    const { body } = await patch(project.id, {
      id: 'another-id',
      createdAt: '2000-01-01T00:00:00.000Z',
      updatedAt: '2000-01-01T00:00:00.000Z',
      name: 'B',
    }).expect(200);
    expect(body.project.id).toBe(project.id);
    expect(body.project.createdAt).toBe(project.createdAt);
    expect(body.project.updatedAt).not.toBe('2000-01-01T00:00:00.000Z');
    expect(body.project.name).toBe('B');
  });

  it('returns 500 {error:"Failed to update project"} for an unknown id', async () => {
    const { body } = await patch(UNKNOWN_ID, { name: 'x' }).expect(500);
    expect(body).toEqual({
      error: 'Failed to update project',
      code: 'project_not_found',
    });
  });

  it('returns 500 for a malformed id, never a database error', async () => {
    const { body } = await patch("bad'id", { name: 'x' }).expect(500);
    expect(body).toEqual({
      error: 'Failed to update project',
      code: 'project_not_found',
    });
  });

  describe('a body that cannot be applied as given gives 500 and changes nothing', () => {
    const cases: Array<[string, unknown]> = [
      ['an unknown key', { name: 'x', x_unknown_field: 'red' }],
      ['a relation', { sections: [] }],
      ['the _count object', { _count: { tasks: 1 } }],
      ['a number for name', { name: 5 }],
      ['null for name', { name: null }],
      ['null for userId', { userId: null }],
      ['an object for description', { description: { text: 'x' } }],
      ['an array body', [{ name: 'x' }]],
      // userId is indexed: 255 characters on every database
      ['a 256-character userId', { userId: 'u'.repeat(256) }],
      // text that would not be stored as sent
      ['a name holding a lone surrogate', { name: 'a\ud800b' }],
      ['a description holding a lone surrogate', { description: '\udc00' }],
      ['a userId holding a lone surrogate', { userId: 'u\ud83d' }],
      ['a name holding NUL', { name: 'a\u0000b' }],
      ['a null body', null],
      ['a string body', 'name'],
    ];

    it.each(cases)('%s', async (_label, body) => {
      const project = await createProject(t, {
        name: 'Same',
        description: 'Kept',
        userId: 'u',
      });
      const response = await patch(project.id, body).expect(500);
      expect(response.body).toEqual({
        error: 'Failed to update project',
        code: 'invalid_input',
      });
      const after = await fetch(project.id);
      expect(after).toMatchObject({
        name: 'Same',
        description: 'Kept',
        userId: 'u',
        updatedAt: project.updatedAt,
      });
    });
  });
});

describe("PATCH with PATCH_LENGTH_LIMITS=true (create's length rules, for operators who want them)", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ PATCH_LENGTH_LIMITS: 'true' });
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  const patch = (id: string, body: unknown) =>
    request(t.server)
      .patch(`/api/projects/${id}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));

  it.each<[string, Record<string, unknown>]>([
    ['an empty name', { name: '' }],
    ['a 101-character name', { name: 'n'.repeat(101) }],
    ['a 501-character description', { description: 'd'.repeat(501) }],
  ])('refuses %s with 500 and changes nothing', async (_label, body) => {
    const project = await createProject(t, {
      name: 'Same',
      description: 'Kept',
    });
    const response = await patch(project.id, body).expect(500);
    expect(response.body).toEqual({
      error: 'Failed to update project',
      code: 'invalid_input',
    });
    const after = await request(t.server)
      .get(`/api/projects/${project.id}`)
      .expect(200);
    expect(after.body.project).toMatchObject({
      name: 'Same',
      description: 'Kept',
      updatedAt: project.updatedAt,
    });
  });

  it("still applies values at create's limits", async () => {
    const project = await createProject(t);
    const changes = { name: 'n'.repeat(100), description: 'd'.repeat(500) };
    const { body } = await patch(project.id, changes).expect(200);
    expect(body.project).toMatchObject(changes);
  });
});

describe('DELETE /api/projects/{id}', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  it('returns 200 {success:true} and the project is gone', async () => {
    const project = await createProject(t);
    const { body } = await request(t.server)
      .delete(`/api/projects/${project.id}`)
      .expect(200);
    expect(body).toEqual({ success: true });
    await request(t.server).get(`/api/projects/${project.id}`).expect(404);
  });

  it('returns 500 {error:"Failed to delete project"} the second time', async () => {
    const project = await createProject(t);
    await request(t.server).delete(`/api/projects/${project.id}`).expect(200);
    const { body } = await request(t.server)
      .delete(`/api/projects/${project.id}`)
      .expect(500);
    expect(body).toEqual({
      error: 'Failed to delete project',
      code: 'project_not_found',
    });
  });

  it('returns 500 {error:"Failed to delete project"} for an unknown or malformed id', async () => {
    for (const id of [UNKNOWN_ID, 'not-an-id']) {
      const { body } = await request(t.server)
        .delete(`/api/projects/${id}`)
        .expect(500);
      expect(body).toEqual({
        error: 'Failed to delete project',
        code: 'project_not_found',
      });
    }
  });

  it('leaves no orphan sections, agents, tasks or assets', async () => {
    const project = await createProject(t);
    const kept = await createProject(t);
    await insertTask(t.dataSource, project.id, new Date());
    await insertAsset(t.dataSource, project.id, project.sections[0].id);
    await insertAsset(t.dataSource, project.id, null);
    await request(t.server).delete(`/api/projects/${project.id}`).expect(200);
    for (const table of ['sections', 'agents', 'tasks', 'assets']) {
      expect(await countRows(t.dataSource, table, project.id)).toBe(0);
    }
    expect(await countRows(t.dataSource, 'sections', kept.id)).toBe(8);
    expect(await countRows(t.dataSource, 'agents', kept.id)).toBe(3);
  });

  it('removes the project from the list', async () => {
    const gone = await createProject(t, { name: 'gone' });
    const kept = await createProject(t, { name: 'kept' });
    await request(t.server).delete(`/api/projects/${gone.id}`).expect(200);
    const { body } = await request(t.server).get('/api/projects').expect(200);
    expect(body.projects.map((p: { id: string }) => p.id)).toEqual([kept.id]);
  });
});
