import request from 'supertest';
import { createProject, insertTask } from './support/project-fixtures';
import { createTestApp, TestApp } from './support/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Optional pagination of GET /api/projects: an addition to SPEC 4.2. */
describe('GET /api/projects?limit=&cursor= (pagination)', () => {
  let t: TestApp;
  let ids: string[];

  beforeAll(async () => {
    t = await createTestApp();
    ids = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await createProject(t, { name: `p${i}`, userId: 'u' })).id);
      await sleep(2);
    }
    await createProject(t, { name: 'other', userId: 'someone-else' });
    ids.reverse(); // list order: newest first
  });
  afterAll(() => t.close());

  const get = (query: string) => request(t.server).get(`/api/projects${query}`);

  it('leaves the default response exactly as SPEC has it: no nextCursor', async () => {
    const { body } = await get('?userId=u').expect(200);
    expect(Object.keys(body)).toEqual(['projects']);
  });

  it('walks every project in list order, page by page, ending with nextCursor null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?userId=u&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const { body } = await get(query).expect(200);
      expect(Object.keys(body).sort()).toEqual(['nextCursor', 'projects']);
      expect(body.projects.length).toBeLessThanOrEqual(2);
      seen.push(...body.projects.map((p: { id: string }) => p.id));
      cursor = body.nextCursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
  });

  it('gives nextCursor null when the page holds the rest of the list', async () => {
    const { body } = await get('?userId=u&limit=5').expect(200);
    expect(body.projects).toHaveLength(5);
    expect(body.nextCursor).toBeNull();
  });

  it('includes the same relations and _count on a page as in the full list', async () => {
    await insertTask(t.dataSource, ids[0], new Date());
    const full = (await get('?userId=u').expect(200)).body.projects[0];
    const paged = (await get('?userId=u&limit=1').expect(200)).body.projects[0];
    expect(paged).toEqual(full);
    expect(paged._count).toEqual({ tasks: 1, assets: 0 });
  });

  it('pages over all users when userId is absent', async () => {
    const { body } = await get('?limit=100').expect(200);
    expect(body.projects).toHaveLength(6);
    expect(body.nextCursor).toBeNull();
  });

  it.each([
    ['limit=0', ['limit']],
    ['limit=501', ['limit']],
    ['limit=abc', ['limit']],
    ['limit=2.5', ['limit']],
    ['limit=2&cursor=not-a-cursor', ['cursor']],
    ['cursor=anything', ['limit']],
  ])('rejects %s with 400 Invalid input', async (query, path) => {
    const { body } = await get(`?${query}`).expect(400);
    expect(body).toEqual({
      error: 'Invalid input',
      details: expect.any(Array),
    });
    expect(body.details[0].path).toEqual(path);
  });
});
