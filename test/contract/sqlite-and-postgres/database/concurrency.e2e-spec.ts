import request from 'supertest';
import { countRows, createProject } from '../../../support/project-fixtures';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * TypeORM's better-sqlite3 driver shares one connection across the process;
 * without the service's queue, overlapping requests break each other's
 * transactions. These requests all overlap.
 */
describe('concurrent requests on SQLite', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('50 concurrent creates mixed with reads, deletes and failing updates all succeed, each with 8 sections and 3 agents', async () => {
    const doomed = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        createProject(t, { name: `doomed ${i}`, userId: 'doomed' }),
      ),
    );

    const creates = Array.from({ length: 50 }, (_, i) =>
      request(t.server)
        .post('/api/projects')
        .send({ name: `concurrent ${i}`, userId: 'racer' }),
    );
    const reads = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? request(t.server).get('/api/projects?userId=racer')
        : request(t.server).get(`/api/projects/${doomed[0].id}`),
    );
    // Each of these fails inside its transaction and rolls it back; that must
    // never take another request's writes with it.
    const failingPatches = Array.from({ length: 20 }, (_, i) =>
      request(t.server)
        .patch(`/api/projects/missing-${i}`)
        .send({ name: 'never stored' }),
    );
    const deletes = doomed
      .slice(1)
      .map((project) =>
        request(t.server).delete(`/api/projects/${project.id}`),
      );

    const [created, read, deleted, failed] = await Promise.all([
      Promise.all(creates),
      Promise.all(reads),
      Promise.all(deletes),
      Promise.all(failingPatches),
    ]);

    expect(created.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect(read.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(deleted.map((r) => r.status)).toEqual(Array(9).fill(200));
    expect(failed.map((r) => r.status)).toEqual(Array(20).fill(500));

    // Every list read saw whole projects only: never a partial create.
    for (const response of read.filter((r) => r.body.projects)) {
      for (const project of response.body.projects) {
        expect(project.sections).toHaveLength(8);
        expect(project.agents).toHaveLength(3);
      }
    }

    const { body } = await request(t.server)
      .get('/api/projects?userId=racer')
      .expect(200);
    expect(body.projects).toHaveLength(50);
    for (const response of created) {
      const id = response.body.project.id as string;
      expect(await countRows(t.dataSource, 'sections', id)).toBe(8);
      expect(await countRows(t.dataSource, 'agents', id)).toBe(3);
    }
    const remaining = await request(t.server)
      .get('/api/projects?userId=doomed')
      .expect(200);
    expect(remaining.body.projects.map((p: { id: string }) => p.id)).toEqual([
      doomed[0].id,
    ]);
  });

  it('concurrent patches of one project all succeed and the last write is kept whole', async () => {
    const project = await createProject(t, { userId: 'patcher' });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(t.server)
          .patch(`/api/projects/${project.id}`)
          .send({ name: `name ${i}`, description: `description ${i}` }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const { body } = await request(t.server)
      .get(`/api/projects/${project.id}`)
      .expect(200);
    const suffix = (body.project.name as string).replace('name ', '');
    expect(body.project.description).toBe(`description ${suffix}`);
  });
});
