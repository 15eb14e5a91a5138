import request from 'supertest';
import {
  createProject,
  insertAsset,
  insertTask,
} from '../../../support/project-fixtures';
import { createTestApp, TestApp } from '../../../support/test-app';
import { TASKS_SHOWN_PER_PROJECT } from '../../../../src/projects/projects.repository';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GET /api/projects', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  const list = (query = '') =>
    request(t.server).get(`/api/projects${query}`).expect(200);

  it('returns 200 {projects: []} when there are none', async () => {
    const { body } = await list();
    expect(body).toEqual({ projects: [] });
  });

  it('returns every project when userId is absent', async () => {
    await createProject(t, { userId: 'alice' });
    await createProject(t, { userId: 'bob' });
    const { body } = await list();
    expect(
      body.projects.map((p: { userId: string }) => p.userId).sort(),
    ).toEqual(['alice', 'bob']);
  });

  it('returns only the projects of the given userId', async () => {
    const mine = await createProject(t, { userId: 'alice' });
    await createProject(t, { userId: 'bob' });
    await createProject(t, { userId: 'Alice' });
    const { body } = await list('?userId=alice');
    expect(body.projects.map((p: { id: string }) => p.id)).toEqual([mine.id]);
  });

  it('returns an empty list for a userId nobody has', async () => {
    await createProject(t, { userId: 'alice' });
    const { body } = await list('?userId=nobody');
    expect(body.projects).toEqual([]);
  });

  it('includes sections, agents, tasks and a numeric _count of tasks and assets', async () => {
    const project = await createProject(t);
    await insertTask(t.dataSource, project.id, new Date());
    await insertTask(t.dataSource, project.id, new Date());
    await insertAsset(t.dataSource, project.id, project.sections[0].id);
    await insertAsset(t.dataSource, project.id, null);
    await insertAsset(t.dataSource, project.id, null);
    const [listed] = (await list()).body.projects;
    expect(listed.sections).toHaveLength(8);
    expect(listed.sections.map((s: { type: string }) => s.type)[0]).toBe(
      'LOGO',
    );
    expect(listed.agents).toHaveLength(3);
    expect(listed.tasks).toHaveLength(2);
    expect(listed._count).toEqual({ tasks: 2, assets: 3 });
  });

  it("counts each project's own tasks and assets", async () => {
    const busy = await createProject(t, { name: 'busy' });
    await createProject(t, { name: 'idle' });
    await insertTask(t.dataSource, busy.id, new Date());
    await insertAsset(t.dataSource, busy.id, null);
    const { body } = await list();
    const byName = Object.fromEntries(
      body.projects.map((p: { name: string; _count: unknown }) => [
        p.name,
        p._count,
      ]),
    );
    expect(byName).toEqual({
      busy: { tasks: 1, assets: 1 },
      idle: { tasks: 0, assets: 0 },
    });
  });

  it('orders projects by updatedAt, most recent first', async () => {
    const first = await createProject(t, { name: 'first' });
    await sleep(5);
    const second = await createProject(t, { name: 'second' });
    await sleep(5);
    const third = await createProject(t, { name: 'third' });
    const { body } = await list();
    expect(body.projects.map((p: { id: string }) => p.id)).toEqual([
      third.id,
      second.id,
      first.id,
    ]);
  });

  it('lists a project patched 5 ms after another before it', async () => {
    const older = await createProject(t, { name: 'older' });
    const newer = await createProject(t, { name: 'newer' });
    await sleep(5);
    await request(t.server)
      .patch(`/api/projects/${older.id}`)
      .send({ name: 'older, renamed' })
      .expect(200);
    const { body } = await list();
    expect(body.projects.map((p: { id: string }) => p.id)).toEqual([
      older.id,
      newer.id,
    ]);
  });

  it('applies the same order within one user', async () => {
    const a = await createProject(t, { userId: 'u', name: 'a' });
    await sleep(5);
    const b = await createProject(t, { userId: 'u', name: 'b' });
    await sleep(5);
    await request(t.server).patch(`/api/projects/${a.id}`).send({}).expect(200);
    const { body } = await list('?userId=u');
    expect(body.projects.map((p: { id: string }) => p.id)).toEqual([
      a.id,
      b.id,
    ]);
  });

  it('treats an empty userId as present: it matches only an empty userId', async () => {
    const blank = await createProject(t, { userId: '' });
    await createProject(t, { userId: 'alice' });
    const { body } = await list('?userId=');
    expect(body.projects.map((p: { id: string }) => p.id)).toEqual([blank.id]);
  });

  it('rejects a repeated userId with 400 Invalid input', async () => {
    const { body } = await request(t.server)
      .get('/api/projects?userId=a&userId=b')
      .expect(400);
    expect(body).toEqual({
      error: 'Invalid input',
      details: expect.any(Array),
      code: 'invalid_input',
    });
  });
});

describe('GET /api/projects/{id}', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  it('returns 200 {project} with sections, agents, tasks and assets', async () => {
    const created = await createProject(t, {
      name: 'Detail',
      description: 'd',
      userId: 'u',
    });
    const { body } = await request(t.server)
      .get(`/api/projects/${created.id}`)
      .expect(200);
    expect(body).toEqual({ project: expect.any(Object) });
    expect(body.project).toMatchObject({
      id: created.id,
      name: 'Detail',
      description: 'd',
      userId: 'u',
      createdAt: created.createdAt,
      updatedAt: created.updatedAt,
      tasks: [],
      assets: [],
    });
    expect(body.project.sections.map((s: { type: string }) => s.type)).toEqual(
      created.sections.map((s) => s.type),
    );
    expect(body.project.agents.map((a: { name: string }) => a.name)).toEqual([
      'Code Master',
      'Content Writer',
      'Designer',
    ]);
  });

  it('gives each section its own assets', async () => {
    const project = await createProject(t);
    const [logo, icons] = project.sections;
    const logoAsset = await insertAsset(t.dataSource, project.id, logo.id, 'a');
    await insertAsset(t.dataSource, project.id, null, 'loose');
    const { body } = await request(t.server)
      .get(`/api/projects/${project.id}`)
      .expect(200);
    const sections = body.project.sections;
    expect(sections[0].id).toBe(logo.id);
    expect(sections[0].assets.map((a: { id: string }) => a.id)).toEqual([
      logoAsset.id,
    ]);
    expect(sections[1].id).toBe(icons.id);
    expect(sections[1].assets).toEqual([]);
    for (const section of sections)
      expect(Array.isArray(section.assets)).toBe(true);
    expect(body.project.assets).toHaveLength(2);
  });

  it('returns tasks newest first', async () => {
    const project = await createProject(t);
    const base = Date.now();
    await insertTask(t.dataSource, project.id, new Date(base - 2000), 'oldest');
    await insertTask(t.dataSource, project.id, new Date(base), 'newest');
    await insertTask(t.dataSource, project.id, new Date(base - 1000), 'middle');
    const { body } = await request(t.server)
      .get(`/api/projects/${project.id}`)
      .expect(200);
    expect(
      body.project.tasks.map(
        (task: { input: { label: string } }) => task.input.label,
      ),
    ).toEqual(['newest', 'middle', 'oldest']);
    expect(body.project.tasks[0].createdAt).toBe(new Date(base).toISOString());
  });

  it(`shows its ${TASKS_SHOWN_PER_PROJECT} newest tasks, and counts them all`, async () => {
    const project = await createProject(t);
    const base = Date.now();
    const total = TASKS_SHOWN_PER_PROJECT + 5;
    for (let index = 0; index < total; index++) {
      await insertTask(
        t.dataSource,
        project.id,
        new Date(base + index),
        `${index}`,
      );
    }
    const { body } = await request(t.server)
      .get(`/api/projects/${project.id}`)
      .expect(200);
    const labels = body.project.tasks.map(
      (task: { input: { label: string } }) => task.input.label,
    );
    expect(labels).toEqual(
      Array.from(
        { length: TASKS_SHOWN_PER_PROJECT },
        (_, index) => `${total - 1 - index}`,
      ),
    );
    const listed = await request(t.server).get('/api/projects').expect(200);
    const [item] = listed.body.projects.filter(
      (p: { id: string }) => p.id === project.id,
    );
    expect(item.tasks).toHaveLength(TASKS_SHOWN_PER_PROJECT);
    expect(item._count.tasks).toBe(total);
  });

  it('returns 404 {error:"Project not found"} for an unknown id', async () => {
    const { body } = await request(t.server)
      .get('/api/projects/01a20156-1889-7738-abe7-ae7705cfc71f')
      .expect(404);
    expect(body).toEqual({
      error: 'Project not found',
      code: 'project_not_found',
    });
  });

  it.each([
    ['a word', 'not-a-uuid'],
    ['SQL text', "' OR 1=1 --"],
    ['a NUL byte', '\u0000'],
    ['300 characters', 'x'.repeat(300)],
  ])(
    'returns 404 {error:"Project not found"} for a malformed id (%s)',
    async (_label, id) => {
      const { body } = await request(t.server)
        .get(`/api/projects/${encodeURIComponent(id)}`)
        .expect(404);
      expect(body).toEqual({
        error: 'Project not found',
        code: 'project_not_found',
      });
    },
  );
});

// GET bodies are rendered by the database, not by JSON.stringify: text of
// any kind must come back exactly as it was stored, on both databases.
describe('GET bodies carry stored text unchanged', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const awkward =
    '" \\ / \n \t \u0007 \u001f \u007f \u2028 \u2029 é 漢字 👩‍💻 {"j":[1]}';

  it('returns names, descriptions and userIds with quotes, control characters and unicode exactly as created', async () => {
    const created = await createProject(t, {
      name: awkward,
      description: `${awkward} (description)`,
      userId: `${awkward} (user)`,
    });
    const detail = await request(t.server)
      .get(`/api/projects/${created.id}`)
      .expect('Content-Type', 'application/json; charset=utf-8')
      .expect(200);
    const listed = await request(t.server)
      .get(`/api/projects?userId=${encodeURIComponent(`${awkward} (user)`)}`)
      .expect('Content-Type', 'application/json; charset=utf-8')
      .expect(200);
    for (const project of [detail.body.project, listed.body.projects[0]]) {
      expect(project).toMatchObject({
        id: created.id,
        name: awkward,
        description: `${awkward} (description)`,
        userId: `${awkward} (user)`,
        createdAt: created.createdAt,
        updatedAt: created.updatedAt,
      });
    }
  });
});
