import { exportJWK, generateKeyPair } from 'jose';
import request from 'supertest';
import { newId } from '../../../../src/common/ids';
import { Database } from '../../../../src/database/database.service';
import { Task } from '../../../../src/projects/entities';
import { ProjectScope } from '../../../../src/project-scope/project-scope.repository';
import { WorkspaceStatuses } from '../../../../src/sections/workspace-statuses.repository';
import { keepLogo, type AssetBody } from '../../../support/asset-client';
import { DevAuthProviderProcess } from '../../../support/dev-auth-provider-process';
import { DevImageApi } from '../../../support/fake-image-api';
import {
  createProject,
  insertAsset,
  type ProjectBody,
} from '../../../support/project-fixtures';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * A section's chosen result (PUT and DELETE
 * /api/projects/{id}/sections/{sectionId}/selection) and the statuses of
 * sections and agents, recomputed from tasks, assets and the selection.
 * Results are kept logos (through the dev image API); a running task is a
 * row inserted as the tasks runner would write it, then WorkspaceStatuses
 * is called as the runner calls it. Runs on SQLite and PostgreSQL.
 */

interface SectionBody {
  id: string;
  projectId: string;
  type: string;
  status: string;
  selectedAssetId: string | null;
  createdAt: string;
  updatedAt: string;
}

interface ProjectRead {
  sections: SectionBody[];
  agents: Array<{ id: string; type: string; status: string }>;
  etag: string;
}

const selectionOf = (projectId: string, sectionId: string) =>
  `/api/projects/${projectId}/sections/${sectionId}/selection`;

describe('Choosing a section’s result', () => {
  let api: DevImageApi;
  let t: TestApp;

  beforeAll(async () => {
    api = await DevImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: api.url,
    });
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });
  beforeEach(async () => {
    api.reset();
    await t.reset();
  });

  const read = async (projectId: string): Promise<ProjectRead> => {
    const response = await request(t.server)
      .get(`/api/projects/${projectId}`)
      .expect(200);
    const { project } = response.body as { project: ProjectRead };
    // A section's assets carry urls made for each answer: left out.
    const sections = project.sections.map((section): SectionBody => ({
      id: section.id,
      projectId: section.projectId,
      type: section.type,
      status: section.status,
      selectedAssetId: section.selectedAssetId,
      createdAt: section.createdAt,
      updatedAt: section.updatedAt,
    }));
    return {
      sections,
      agents: project.agents,
      etag: response.headers.etag,
    };
  };

  const sectionIn = async (projectId: string, type: string) =>
    (await read(projectId)).sections.find((s) => s.type === type)!;

  const idOf = (project: ProjectBody, type: string) =>
    project.sections.find((s) => s.type === type)!.id;

  const keep = async (projectId: string): Promise<AssetBody> =>
    ((await keepLogo(t, projectId).expect(201)).body as { asset: AssetBody })
      .asset;

  const choose = (projectId: string, sectionId: string, assetId: unknown) =>
    request(t.server).put(selectionOf(projectId, sectionId)).send({ assetId });

  const unchoose = (projectId: string, sectionId: string) =>
    request(t.server).delete(selectionOf(projectId, sectionId));

  /**
   * As the tasks runner moves tasks: then it recomputes the statuses and,
   * when they moved, the project's version (their change events carry it).
   */
  const refresh = (projectId: string) =>
    t.app.get(Database).transaction(async (transaction) => {
      const changed = await t.app
        .get(WorkspaceStatuses)
        .refresh(transaction, projectId);
      if (changed) {
        await t.app.get(ProjectScope).advance(transaction, {
          projectId,
          missing: () => new Error('no such project'),
        });
      }
      return changed;
    });

  /** A task of the project, RUNNING for this section on this agent. */
  const startTask = async (
    projectId: string,
    sectionId: string,
    agentId: string,
  ): Promise<string> => {
    const now = new Date();
    const id = newId();
    await t.dataSource.getRepository(Task).insert({
      id,
      projectId,
      sectionId,
      agentId,
      type: 'logo',
      status: 'RUNNING',
      input: '{}',
      assetIds: '[]',
      error: null,
      attempts: 1,
      createdAt: now,
      startedAt: now,
      finishedAt: null,
      updatedAt: now,
      runAfter: now,
      leaseUntil: new Date(now.getTime() + 60_000),
    });
    return id;
  };

  /**
   * The stored statuses, read with SQL: while a project has tasks, its GET
   * shows them, and their shape is the tasks routes' to test.
   */
  const statusesOf = async (projectId: string) => {
    const query = (table: string) =>
      t.dataSource.query<Array<{ type: string; status: string }>>(
        t.dataSource.options.type === 'postgres'
          ? `SELECT "type", "status" FROM "${table}" WHERE "projectId" = $1 ORDER BY "type"`
          : `SELECT "type", "status" FROM "${table}" WHERE "projectId" = ? ORDER BY "type"`,
        [projectId],
      );
    const byType = (rows: Array<{ type: string; status: string }>) =>
      Object.fromEntries(rows.map((row) => [row.type, row.status]));
    return {
      sections: byType(await query('sections')),
      agents: byType(await query('agents')),
    };
  };

  const settleTask = (taskId: string, status: string) =>
    t.dataSource
      .getRepository(Task)
      .update({ id: taskId }, { status, finishedAt: new Date() });

  it('a new project answers every section PENDING with nothing chosen, every agent IDLE', async () => {
    const project = await createProject(t);
    const { sections, agents } = await read(project.id);
    expect(sections).toHaveLength(8);
    for (const section of sections) {
      expect(section).toMatchObject({
        status: 'PENDING',
        selectedAssetId: null,
      });
    }
    expect(agents.map((agent) => agent.status)).toEqual([
      'IDLE',
      'IDLE',
      'IDLE',
    ]);
    // Nothing to recompute: nothing changes, not even updatedAt.
    expect(await refresh(project.id)).toBe(false);
    expect((await read(project.id)).sections).toEqual(sections);
  });

  it('a kept logo is a result of the LOGO section: it is REVIEW, the others stay PENDING', async () => {
    const project = await createProject(t);
    await keep(project.id);
    const { sections } = await read(project.id);
    expect(sections.map((s) => `${s.type}:${s.status}`)).toEqual([
      'LOGO:REVIEW',
      'ICONS:PENDING',
      'GRAPHICS:PENDING',
      'MARKETING:PENDING',
      'WIREFRAME:PENDING',
      'CODE:PENDING',
      'TESTING:PENDING',
      'DEPLOYMENT:PENDING',
    ]);
  });

  it('choosing a result answers 200 {section} DONE with it chosen, and moves the project’s ETag', async () => {
    const project = await createProject(t);
    const asset = await keep(project.id);
    const before = await read(project.id);
    const logo = before.sections.find((s) => s.type === 'LOGO')!;

    const response = await choose(project.id, logo.id, asset.id).expect(200);

    expect(response.body).toEqual({
      section: {
        id: logo.id,
        projectId: project.id,
        type: 'LOGO',
        status: 'DONE',
        selectedAssetId: asset.id,
        createdAt: logo.createdAt,
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      },
    });
    const after = await read(project.id);
    expect(response.headers.etag).not.toBe(before.etag);
    expect(after.etag).toBe(response.headers.etag);
    expect(after.sections.find((s) => s.id === logo.id)).toEqual(
      (response.body as { section: SectionBody }).section,
    );
  });

  it('choosing the chosen result again answers the same section, still DONE', async () => {
    const project = await createProject(t);
    const asset = await keep(project.id);
    const logo = idOf(project, 'LOGO');
    await choose(project.id, logo, asset.id).expect(200);
    const again = await choose(project.id, logo, asset.id).expect(200);
    expect(again.body).toMatchObject({
      section: { status: 'DONE', selectedAssetId: asset.id },
    });
  });

  it('another result of the section can be chosen in place of the chosen one', async () => {
    const project = await createProject(t);
    const first = await keep(project.id);
    const second = await keep(project.id);
    const logo = idOf(project, 'LOGO');
    await choose(project.id, logo, first.id).expect(200);
    const response = await choose(project.id, logo, second.id).expect(200);
    expect(response.body).toMatchObject({
      section: { status: 'DONE', selectedAssetId: second.id },
    });
  });

  it('un-choosing answers 200 {section} REVIEW with nothing chosen, and moves the ETag', async () => {
    const project = await createProject(t);
    const asset = await keep(project.id);
    const logo = idOf(project, 'LOGO');
    const chosen = await choose(project.id, logo, asset.id).expect(200);

    const response = await unchoose(project.id, logo).expect(200);

    expect(response.body).toMatchObject({
      section: {
        id: logo,
        type: 'LOGO',
        status: 'REVIEW',
        selectedAssetId: null,
      },
    });
    expect(response.headers.etag).not.toBe(chosen.headers.etag);
    expect((await read(project.id)).etag).toBe(response.headers.etag);
  });

  it('un-choosing when nothing is chosen is 409, and nothing changes', async () => {
    const project = await createProject(t);
    await keep(project.id);
    const before = await read(project.id);
    const response = await unchoose(project.id, idOf(project, 'LOGO')).expect(
      409,
    );
    expect(response.body).toEqual({
      error: 'No result of this section is chosen',
      code: 'nothing_chosen',
    });
    expect(await read(project.id)).toEqual(before);
  });

  it('choosing an asset of another section of the project is 409, and nothing changes', async () => {
    const project = await createProject(t);
    const copy = await insertAsset(
      t.dataSource,
      project.id,
      idOf(project, 'MARKETING'),
    );
    await keep(project.id);
    const before = await read(project.id);
    const response = await choose(
      project.id,
      idOf(project, 'LOGO'),
      copy.id,
    ).expect(409);
    expect(response.body).toEqual({
      error: 'This asset is not a result of this section',
      code: 'not_a_result_of_section',
    });
    expect(await read(project.id)).toEqual(before);
  });

  it('while a task runs for a section it is IN_PROGRESS and its agent WORKING; choosing then is 409', async () => {
    const project = await createProject(t);
    const asset = await keep(project.id);
    const logo = idOf(project, 'LOGO');
    const designer = project.agents.find((a) => a.type === 'DESIGN')!.id;
    const task = await startTask(project.id, logo, designer);

    expect(await refresh(project.id)).toBe(true);
    const running = await statusesOf(project.id);
    expect(running.sections.LOGO).toBe('IN_PROGRESS');
    expect(running.agents).toEqual({
      CODE: 'IDLE',
      DESIGN: 'WORKING',
      MARKETING: 'IDLE',
    });
    const refused = await choose(project.id, logo, asset.id).expect(409);
    expect(refused.body).toEqual({
      error:
        'A task is running for this section; choose a result once it has finished',
      code: 'section_in_progress',
    });
    expect(await statusesOf(project.id)).toEqual(running);
    // Recomputed again with nothing new: nothing changes.
    expect(await refresh(project.id)).toBe(false);

    await settleTask(task, 'SUCCEEDED');
    expect(await refresh(project.id)).toBe(true);
    const settled = await statusesOf(project.id);
    expect(settled.sections.LOGO).toBe('REVIEW');
    expect(Object.values(settled.agents)).toEqual(['IDLE', 'IDLE', 'IDLE']);
    const chosen = await choose(project.id, logo, asset.id).expect(200);
    expect(chosen.body).toMatchObject({ section: { status: 'DONE' } });
  });

  it('a task that ends without results leaves its section PENDING again', async () => {
    const project = await createProject(t);
    const code = idOf(project, 'CODE');
    const coder = project.agents.find((a) => a.type === 'CODE')!.id;
    const task = await startTask(project.id, code, coder);
    await refresh(project.id);
    expect((await statusesOf(project.id)).sections.CODE).toBe('IN_PROGRESS');
    await settleTask(task, 'FAILED');
    await refresh(project.id);
    expect((await statusesOf(project.id)).sections.CODE).toBe('PENDING');
  });

  it('a task running on a DONE section makes it IN_PROGRESS; it is DONE again, the choice kept, once it ends', async () => {
    const project = await createProject(t);
    const asset = await keep(project.id);
    const logo = idOf(project, 'LOGO');
    await choose(project.id, logo, asset.id).expect(200);
    const designer = project.agents.find((a) => a.type === 'DESIGN')!.id;
    const task = await startTask(project.id, logo, designer);
    await refresh(project.id);
    expect((await statusesOf(project.id)).sections.LOGO).toBe('IN_PROGRESS');
    await settleTask(task, 'CANCELLED');
    await refresh(project.id);
    expect((await statusesOf(project.id)).sections.LOGO).toBe('DONE');
    // Still chosen: un-choosing it is allowed (409 when nothing is).
    const unchosen = await unchoose(project.id, logo).expect(200);
    expect(unchosen.body).toMatchObject({
      section: { status: 'REVIEW', selectedAssetId: null },
    });
  });

  it('deleting the chosen asset un-chooses it: REVIEW while other results remain, then PENDING', async () => {
    const project = await createProject(t);
    const chosen = await keep(project.id);
    const other = await keep(project.id);
    const logo = idOf(project, 'LOGO');
    await choose(project.id, logo, chosen.id).expect(200);

    const deleted = await request(t.server)
      .delete(`/api/projects/${project.id}/assets/${chosen.id}`)
      .expect(200);
    const after = await read(project.id);
    expect(after.etag).toBe(deleted.headers.etag);
    expect(after.sections.find((s) => s.id === logo)).toMatchObject({
      status: 'REVIEW',
      selectedAssetId: null,
    });

    await request(t.server)
      .delete(`/api/projects/${project.id}/assets/${other.id}`)
      .expect(200);
    expect(await sectionIn(project.id, 'LOGO')).toMatchObject({
      status: 'PENDING',
      selectedAssetId: null,
    });
  });

  it('an unknown project is 404 {error:"Project not found"}', async () => {
    const project = await createProject(t);
    const asset = await keep(project.id);
    const logo = idOf(project, 'LOGO');
    for (const id of [newId(), 'not-an-id']) {
      const put = await choose(id, logo, asset.id).expect(404);
      expect(put.body).toEqual({
        error: 'Project not found',
        code: 'project_not_found',
      });
      const del = await unchoose(id, logo).expect(404);
      expect(del.body).toEqual({
        error: 'Project not found',
        code: 'project_not_found',
      });
    }
  });

  it('a section that is not the project’s is 404 {error:"Section not found"}', async () => {
    const project = await createProject(t);
    const other = await createProject(t);
    const asset = await keep(project.id);
    for (const sectionId of [newId(), 'nope', idOf(other, 'LOGO')]) {
      const put = await choose(project.id, sectionId, asset.id).expect(404);
      expect(put.body).toEqual({
        error: 'Section not found',
        code: 'section_not_found',
      });
      const del = await unchoose(project.id, sectionId).expect(404);
      expect(del.body).toEqual({
        error: 'Section not found',
        code: 'section_not_found',
      });
    }
  });

  it('an asset that is not the project’s is 404 {error:"Asset not found"}, and nothing changes', async () => {
    const project = await createProject(t);
    const other = await createProject(t);
    const elsewhere = await keep(other.id);
    const before = await read(project.id);
    for (const assetId of [newId(), 'nope', elsewhere.id]) {
      const response = await choose(
        project.id,
        idOf(project, 'LOGO'),
        assetId,
      ).expect(404);
      expect(response.body).toEqual({
        error: 'Asset not found',
        code: 'asset_not_found',
      });
    }
    expect(await read(project.id)).toEqual(before);
  });

  it('a body without an assetId string is 400 {error:"Invalid input", details}', async () => {
    const project = await createProject(t);
    const logo = idOf(project, 'LOGO');
    const missing = await request(t.server)
      .put(selectionOf(project.id, logo))
      .send({})
      .expect(400);
    expect(missing.body).toEqual({
      error: 'Invalid input',
      details: [
        { path: ['assetId'], message: 'Required', code: 'invalid_type' },
      ],
      code: 'invalid_input',
    });
    const number = await choose(project.id, logo, 42).expect(400);
    expect(number.body).toMatchObject({
      error: 'Invalid input',
      details: [{ path: ['assetId'], message: 'Expected string' }],
    });
    const long = await choose(project.id, logo, 'x'.repeat(37)).expect(400);
    expect(long.body).toMatchObject({
      error: 'Invalid input',
      details: [{ path: ['assetId'] }],
    });
  });

  it('a body that is not JSON is the route’s 500 {error:"Failed to choose result"}, as for PATCH', async () => {
    const project = await createProject(t);
    const response = await request(t.server)
      .put(selectionOf(project.id, idOf(project, 'LOGO')))
      .set('Content-Type', 'application/json')
      .send('{"assetId":')
      .expect(500);
    expect(response.body).toEqual({
      error: 'Failed to choose result',
      code: 'invalid_json',
    });
  });

  it('If-Match: a stale ETag is 412 and nothing changes; the current one goes through', async () => {
    const project = await createProject(t);
    const asset = await keep(project.id);
    const logo = idOf(project, 'LOGO');
    const { etag } = await read(project.id);
    await keep(project.id);
    const before = await read(project.id);

    const stale = await choose(project.id, logo, asset.id)
      .set('If-Match', etag)
      .expect(412);
    expect(stale.body).toEqual({
      error: 'Precondition failed',
      code: 'precondition_failed',
    });
    expect(await read(project.id)).toEqual(before);

    const chosen = await choose(project.id, logo, asset.id)
      .set('If-Match', before.etag)
      .expect(200);
    await unchoose(project.id, logo).set('If-Match', before.etag).expect(412);
    await unchoose(project.id, logo)
      .set('If-Match', chosen.headers.etag)
      .expect(200);
  });
});

describe('Choosing a section’s result with AUTH_MODE=oidc', () => {
  let provider: DevAuthProviderProcess;
  let t: TestApp;
  let alice: string;
  let bob: string;
  let admin: string;
  const ADMIN_ROLE = 'workspace-admin';
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    const { privateKey } = await generateKeyPair('RS256', {
      extractable: true,
    });
    provider = await DevAuthProviderProcess.start({
      ...(await exportJWK(privateKey)),
      kid: 'sections-oidc',
      alg: 'RS256',
      use: 'sig',
    });
    t = await createTestApp({
      AUTH_MODE: 'oidc',
      AUTH_ISSUER: provider.issuer,
      AUTH_AUDIENCE: 'workspace-api',
      AUTH_ADMIN_ROLE: ADMIN_ROLE,
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
    });
    alice = await provider.token('alice');
    bob = await provider.token('bob');
    admin = await provider.token('root', { roles: [ADMIN_ROLE] });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.stop();
  });

  it('only the owner chooses: anyone else, an admin included, gets 404 and nothing changes', async () => {
    const created = await request(t.server)
      .post('/api/projects')
      .set(as(alice))
      .send({ name: 'Site' })
      .expect(201);
    const project = created.body.project as ProjectBody;
    const logo = project.sections.find((s) => s.type === 'LOGO')!.id;
    const asset = await insertAsset(t.dataSource, project.id, logo);
    const path = selectionOf(project.id, logo);

    await request(t.server).put(path).send({ assetId: asset.id }).expect(401);
    for (const token of [bob, admin]) {
      const put = await request(t.server)
        .put(path)
        .set(as(token))
        .send({ assetId: asset.id })
        .expect(404);
      expect(put.body).toEqual({
        error: 'Project not found',
        code: 'project_not_found',
      });
    }
    const read = await request(t.server)
      .get(`/api/projects/${project.id}`)
      .set(as(alice))
      .expect(200);
    // The ETag of an answer with signed urls adds their expiry.
    expect(read.headers.etag.split('.')[0]).toBe(
      created.headers.etag.replace(/"$/, ''),
    );

    await request(t.server)
      .put(path)
      .set(as(alice))
      .send({ assetId: asset.id })
      .expect(200);
    for (const token of [bob, admin]) {
      await request(t.server).delete(path).set(as(token)).expect(404);
    }
    const undone = await request(t.server)
      .delete(path)
      .set(as(alice))
      .expect(200);
    expect(undone.body).toMatchObject({
      section: { status: 'REVIEW', selectedAssetId: null },
    });
  });
});
