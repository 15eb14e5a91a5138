import request from 'supertest';
import { createProject, insertTask } from '../../../support/project-fixtures';
import { createTestApp, TestApp } from '../../../support/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Optional pagination of GET /api/projects (`limit`, `cursor`). */
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

  it('leaves the default response without a nextCursor', async () => {
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
      code: 'invalid_input',
    });
    expect(body.details[0].path).toEqual(path);
  });

  const cursorOf = (value: unknown) =>
    Buffer.from(JSON.stringify(value)).toString('base64url');

  it.each([
    [
      'a date before any the service writes (the earliest JavaScript date)',
      () => cursorOf(['-271821-04-20T00:00:00.000Z', ids[0]]),
    ],
    [
      'a date after year 9999',
      () => cursorOf(['+275760-09-13T00:00:00.000Z', ids[0]]),
    ],
    [
      'a date before 1970',
      () => cursorOf(['1969-12-31T23:59:59.999Z', ids[0]]),
    ],
    ['a date in another form', () => cursorOf(['2026-11-25 10:00:00', ids[0]])],
    [
      'an impossible date',
      () => cursorOf(['2026-02-31T00:00:00.000Z', ids[0]]),
    ],
    [
      'an id the service never makes',
      () => cursorOf(['2026-11-25T10:00:00.000Z', 'not-an-id']),
    ],
    [
      'another spelling of an issued cursor',
      () => cursorOf(['2026-11-25T10:00:00.000Z', ids[0]]) + '=',
    ],
    ['a third field', () => cursorOf(['2026-11-25T10:00:00.000Z', ids[0], 1])],
  ])(
    'refuses a cursor the service did not issue, with %s, with 400 custom',
    async (_label, cursor) => {
      const { body } = await get(`?limit=2&cursor=${cursor()}`).expect(400);
      expect(body).toEqual({
        error: 'Invalid input',
        details: [
          { path: ['cursor'], message: 'Invalid cursor', code: 'custom' },
        ],
        code: 'invalid_input',
      });
    },
  );

  it('accepts every cursor it issued', async () => {
    const first = await get('?limit=2&userId=u').expect(200);
    await get(`?limit=2&userId=u&cursor=${first.body.nextCursor}`).expect(200);
  });
});
