import request from 'supertest';
import { SitesServer } from '../../src/sites/sites-server';
import { createProject } from '../support/project-fixtures';
import { chosenPage, keepReport } from '../support/site-parts';
import {
  fetchSite,
  freePort,
  untilBody,
  untilStatus,
} from '../support/site-client';
import { startTask, waitForTask } from '../support/task-client';
import { createTestApp, type TestApp } from '../support/test-app';
import {
  createPostgresDatabase,
  type TestDatabase,
} from '../support/test-database';

const PAGE = (text: string) =>
  `<!doctype html><html><head><title>Shared</title></head><body><p>${text}</p></body></html>`;

/**
 * Two app instances (each with its sites listener) sharing one
 * PostgreSQL database, as two replicas behind one sites Service: a
 * rollback or a take-down through one shows at the other's listener
 * within 5 s (it reads the current version at most 1 s old).
 */
describe('PostgreSQL: a site change through one replica shows on the other', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let bOrigin: string;

  const startReplica = async (db: TestDatabase) => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const t = await createTestApp(
      {
        SITES_PORT: String(port),
        SITES_HOST: '127.0.0.1',
        SITES_BASE_URL: origin,
      },
      { database: db },
    );
    await t.app.get(SitesServer).start();
    return { t, origin };
  };

  beforeAll(async () => {
    database = await createPostgresDatabase();
    // The first app to close must not drop the database the other uses.
    const shared = { ...database, drop: () => Promise.resolve() };
    a = (await startReplica(shared)).t;
    const second = await startReplica(shared);
    b = second.t;
    bOrigin = second.origin;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('publish through A, rollback and DELETE through A: B answers the change within 5 s', async () => {
    const project = await createProject(a, { name: 'Shared' });
    for (const text of ['one', 'two']) {
      const page = await chosenPage(a, project.id, PAGE(text));
      await keepReport(a, project.id, page, []);
      const task = await startTask(a, project.id, { type: 'publish' });
      expect((await waitForTask(a, project.id, task.id)).status).toBe(
        'SUCCEEDED',
      );
    }
    const atB = `${bOrigin}/${project.id}/`;
    await untilBody(atB, (bytes) => bytes.toString().includes('two'));

    await request(a.server)
      .post(`/api/projects/${project.id}/site/rollback`)
      .send({ version: 1 })
      .expect(200);
    const back = await untilBody(atB, (bytes) =>
      bytes.toString().includes('one'),
    );
    expect(back.afterMs).toBeLessThan(5000);

    await request(a.server)
      .delete(`/api/projects/${project.id}/site`)
      .expect(204);
    const gone = await untilStatus(atB, 404);
    expect(gone.afterMs).toBeLessThan(5000);
    // The version's own address stays (immutable), also on B.
    expect((await fetchSite(`${atB}v1/`)).status).toBe(200);
    await request(b.server).get(`/api/projects/${project.id}/site`).expect(404);
  });
});
