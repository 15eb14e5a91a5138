import {
  openScratchSqlite,
  type ScratchSqlite,
} from '../../test/support/scratch-sqlite';
import { ProjectPreconditionFailedException } from '../project-scope/project-scope.errors';
import type { SnapshotReader } from '../database/snapshot-reader';
import type { Project } from './entities/project.entity';
import { ProjectsRepository } from './projects.repository';

class Missing extends Error {}

describe('ProjectsRepository (SQLite)', () => {
  let scratch: ScratchSqlite;
  let projects: ProjectsRepository;
  let ann: Project;
  let annOther: Project;
  let bob: Project;

  beforeAll(async () => {
    scratch = await openScratchSqlite();
    projects = new ProjectsRepository(
      scratch.db,
      undefined as unknown as SnapshotReader,
      scratch.scope,
      scratch.changeLog,
    );
    ann = await scratch.insertProject('ann', 'Ann one');
    annOther = await scratch.insertProject('ann', 'Ann two');
    bob = await scratch.insertProject('bob', 'Bob');
  });

  afterAll(() => scratch.close());

  const idsOf = (list: { projects: string[] }) =>
    list.projects.map((json) => (JSON.parse(json) as { id: string }).id);

  it("a page lists one user's projects only, and the next page goes on after it without repeats", async () => {
    const first = await projects.findPage('ann', { limit: 1 });
    expect(first.next).toBeDefined();
    const second = await projects.findPage('ann', {
      limit: 1,
      after: first.next,
    });
    const listed = [...idsOf(first), ...idsOf(second)];
    expect(listed.sort()).toEqual([ann.id, annOther.id].sort());
    expect(second.next).toBeUndefined();
    expect(idsOf(await projects.findPage(undefined, { limit: 10 }))).toEqual(
      expect.arrayContaining([ann.id, annOther.id, bob.id]),
    );
  });

  it("a project's version is read for its owner only", async () => {
    expect(await projects.findVersion(ann.id, 'ann')).toMatchObject({
      hasAssets: false,
    });
    expect(await projects.findVersion(ann.id, 'bob')).toBeNull();
  });

  it('an update applies the fields and moves the version; with a stale If-Match it is 412 and nothing changes', async () => {
    const before = await projects.findVersion(bob.id);
    const { latest } = await scratch.changeLog.bounds();
    const changed = await projects.update(
      { projectId: bob.id, owner: 'bob', missing: () => new Missing() },
      { name: 'Bob renamed' },
    );
    expect(changed.project.name).toBe('Bob renamed');
    const [event] = await scratch.changeLog.after(latest, {}, 10);
    // The changed fields' values and the new updatedAt, as the answer shows them.
    expect(event.data).toEqual({
      fields: ['name'],
      values: {
        name: 'Bob renamed',
        updatedAt: changed.project.updatedAt.toISOString(),
      },
      etag: expect.any(String) as unknown,
    });
    const after = await projects.findVersion(bob.id);
    expect(after!.version).toBe(before!.version + 1);
    await expect(
      projects.update(
        {
          projectId: bob.id,
          owner: 'bob',
          ifMatch: [before!.version],
          missing: () => new Missing(),
        },
        { name: 'Lost update' },
      ),
    ).rejects.toBeInstanceOf(ProjectPreconditionFailedException);
    expect((await projects.findVersion(bob.id))!.version).toBe(after!.version);
  });

  it("another user's project cannot be removed (the route's own failure); its owner removes it with its children", async () => {
    await expect(
      projects.remove({
        projectId: annOther.id,
        owner: 'bob',
        missing: () => new Missing(),
      }),
    ).rejects.toBeInstanceOf(Missing);
    await projects.remove({
      projectId: annOther.id,
      owner: 'ann',
      missing: () => new Missing(),
    });
    expect(await projects.findVersion(annOther.id)).toBeNull();
    const sections = await scratch.db.read((manager) =>
      manager.query<unknown[]>(
        'SELECT 1 FROM "sections" WHERE "projectId" = ?',
        [annOther.id],
      ),
    );
    expect(sections).toEqual([]);
  });
});
