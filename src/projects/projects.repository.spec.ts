import {
  openScratchSqlite,
  type ScratchSqlite,
} from '../../test/support/scratch-sqlite';
import { ProjectPreconditionFailedException } from '../project-scope/project-scope.errors';
import type { SnapshotReader } from '../database/snapshot-reader';
import type { Project } from './entities/project.entity';
import type { ProjectCursor } from './project-cursor';
import { ProjectsRepository, type ProjectPage } from './projects.repository';
import { insertAsset } from '../../test/support/project-fixtures';

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

  it("a project's detail gives each asset its url and thumbnailUrl: a rendition for rasters (after a signature too), the url for SVG, none for the rest", async () => {
    const project = await scratch.insertProject('cat', 'Cat');
    const kinds = [
      ['image/png', 'a0'],
      ['image/svg+xml', 'a1'],
      ['application/json', 'a2'],
    ] as const;
    for (const [index, [contentType, name]] of kinds.entries()) {
      await scratch.dataSource.query(
        'INSERT INTO "assets" ("id", "projectId", "sectionId", "kind", "contentType", "byteSize", "sha256", "prompt", "model", "createdAt", "fileName", "width", "height") VALUES (?, ?, NULL, ?, ?, 1, ?, ?, ?, ?, ?, NULL, NULL)',
        [
          `00000000-0000-7000-8000-00000000000${index}`,
          project.id,
          'logo',
          contentType,
          'a'.repeat(64),
          'p',
          'm',
          `2026-11-0${index + 1} 10:00:00.000`,
          name,
        ],
      );
    }
    const thumbnails = async (after: string) => {
      const detail = await projects.findDetail(project.id, {
        before: 'https://api.example.com/assets/',
        after,
      });
      return (
        JSON.parse(detail!.document) as {
          assets: Array<{ url: string; thumbnailUrl: string | null }>;
        }
      ).assets.map(({ url, thumbnailUrl }) => [url, thumbnailUrl]);
    };
    const at = (index: number, after: string) =>
      `https://api.example.com/assets/00000000-0000-7000-8000-00000000000${index}${after}`;
    await expect(thumbnails('/content')).resolves.toEqual([
      [at(0, '/content'), at(0, '/content?size=128')],
      [at(1, '/content'), at(1, '/content')],
      [at(2, '/content'), null],
    ]);
    const signed = '/content?expires=9&signature=s';
    await expect(thumbnails(signed)).resolves.toEqual([
      [at(0, signed), at(0, `${signed}&size=128`)],
      [at(1, signed), at(1, signed)],
      [at(2, signed), null],
    ]);
  });

  describe('pages in other orders, filtered, lean and counted', () => {
    let listed: Project[];
    beforeAll(async () => {
      listed = [];
      for (const name of ['b_c', 'B%c', 'bXc', 'Émile', 'émile', 'abc']) {
        listed.push(await scratch.insertProject('carol', name));
      }
    });

    const walk = async (page: Omit<ProjectPage, 'limit' | 'after'>) => {
      const names: string[] = [];
      let after: ProjectCursor | undefined;
      for (let pages = 0; pages < 20; pages++) {
        const list = await projects.findPage('carol', {
          ...page,
          limit: 1,
          after,
        });
        names.push(
          ...list.projects.map((json) => (JSON.parse(json) as Project).name),
        );
        if (!list.next) return names;
        after = list.next;
      }
      throw new Error('the walk did not end');
    };

    it('q is a contains on the ASCII-folded name, % and _ matching themselves', async () => {
      const byName = { order: { sort: 'name', order: 'asc' } } as const;
      expect(await walk({ ...byName, search: 'B_' })).toEqual(['b_c']);
      expect(await walk({ ...byName, search: '%' })).toEqual(['B%c']);
      expect(await walk({ ...byName, search: 'BC' })).toEqual(['abc']);
      expect(await walk({ ...byName, search: 'émile' })).toEqual(['émile']);
    });

    it('sort=name pages by the folded name byte by byte, ties by id, both ways', async () => {
      const ascending = await walk({ order: { sort: 'name', order: 'asc' } });
      expect(ascending).toEqual(['abc', 'B%c', 'b_c', 'bXc', 'Émile', 'émile']);
      const descending = await walk({ order: { sort: 'name', order: 'desc' } });
      expect(descending).toEqual([...ascending].reverse());
    });

    it('sort=createdAt ascending pages in creation order', async () => {
      const created = [...listed].sort(
        (a, b) =>
          a.createdAt.getTime() - b.createdAt.getTime() ||
          (a.id < b.id ? -1 : 1),
      );
      expect(
        await walk({ order: { sort: 'createdAt', order: 'asc' } }),
      ).toEqual(created.map((project) => project.name));
    });

    it('the summary view leaves agents and tasks out and names each chosen logo; withTotal counts every match', async () => {
      const [first] = listed;
      const logo = await insertAsset(scratch.dataSource, first.id, null);
      await scratch.dataSource.query(
        `UPDATE "sections" SET "selectedAssetId" = ? WHERE "projectId" = ? AND "type" = 'LOGO'`,
        [logo.id, first.id],
      );
      const page = await projects.findPage('carol', {
        limit: 2,
        search: 'C',
        order: { sort: 'createdAt', order: 'asc' },
        view: 'summary',
        withTotal: true,
      });
      const item = JSON.parse(page.projects[0]) as Record<string, unknown>;
      expect(Object.keys(item)).toEqual([
        'id',
        'name',
        'description',
        'userId',
        'createdAt',
        'updatedAt',
        'sections',
        '_count',
      ]);
      expect(page.logos).toEqual([
        { projectId: first.id, assetId: logo.id },
        null,
      ]);
      expect(page.total).toBe(4);
      const full = await projects.findPage('carol', { limit: 1 });
      expect(full.logos).toBeUndefined();
      expect(full.total).toBeUndefined();
    });
  });
});
