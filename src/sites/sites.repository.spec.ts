import {
  logoAssetRecord,
  openScratchSqlite,
  type ScratchSqlite,
} from '../../test/support/scratch-sqlite';
import { AssetsRepository } from '../assets/assets.repository';
import type { AssetRecord } from '../assets/dto/asset.dto';
import { newId } from '../common/ids';
import type { Project } from '../projects/entities/project.entity';
import type { SiteFile } from './site-files';
import { deploymentFileName } from './site-files';
import { SitesRepository } from './sites.repository';

const file = (path: SiteFile['path'], text: string): SiteFile => ({
  path,
  contentType: 'text/html; charset=utf-8',
  byteSize: text.length,
  sha256: 'b'.repeat(64),
  bytes: Buffer.from(text),
});

describe('SitesRepository (SQLite)', () => {
  let scratch: ScratchSqlite;
  let sites: SitesRepository;
  let assets: AssetsRepository;
  let project: Project;

  beforeAll(async () => {
    scratch = await openScratchSqlite();
    sites = new SitesRepository(scratch.db);
    assets = new AssetsRepository(scratch.db, scratch.changeLog);
    project = await scratch.insertProject('ann', 'Acme');
  });
  afterAll(() => scratch.close());

  const sectionOf = (type: string) =>
    project.sections.find((section) => section.type === type)!.id;

  const keep = (fields: Partial<AssetRecord>) =>
    scratch.changing(project.id, async (transaction) => {
      const record = logoAssetRecord(project, fields);
      await assets.insert(transaction, record);
      return record;
    });

  const add = (taskId: string, text: string) =>
    sites.addVersion(
      {
        projectId: project.id,
        taskId,
        reportId: null,
        files: [
          {
            path: 'index.html',
            contentType: 'text/html; charset=utf-8',
            byteSize: text.length,
            sha256: 'b'.repeat(64),
          },
        ],
        publishedAt: new Date().toISOString(),
      },
      [file('index.html', text)],
    );

  it('numbers versions 1, 2, … per project, keeps their files, and finds a task’s version again', async () => {
    const first = newId();
    expect(await add(first, 'one')).toBe(1);
    expect(await add(newId(), 'two')).toBe(2);
    expect((await sites.versionOfTask(first))?.version).toBe(1);
    expect(await sites.versionOfTask(newId())).toBeUndefined();
    const stored = await sites.file(project.id, 1, 'index.html');
    expect(stored?.bytes.toString()).toBe('one');
    expect(await sites.file(project.id, 1, 'og.png')).toBeUndefined();
    expect((await sites.version(project.id, 2))?.files).toEqual([
      expect.objectContaining({ path: 'index.html', byteSize: 3 }),
    ]);
    expect((await add(newId(), 'gone')) === undefined).toBe(false);
  });

  it('a version of a project that is gone is not written', async () => {
    const version = await sites.addVersion(
      {
        projectId: newId(),
        taskId: newId(),
        reportId: null,
        files: [],
        publishedAt: new Date().toISOString(),
      },
      [],
    );
    expect(version).toBeUndefined();
  });

  it('moves the current version, takes it down, and names the deployment record', async () => {
    const at = new Date().toISOString();
    expect(await sites.current(project.id)).toBeUndefined();
    expect(
      await scratch.db.transaction((t) =>
        sites.makeCurrent(t, project.id, 99, at),
      ),
    ).toBe(false);
    await scratch.db.transaction((t) =>
      sites.makeCurrent(t, project.id, 2, at),
    );
    expect(await sites.currentVersion(project.id)).toBe(2);
    expect(await sites.current(project.id)).toMatchObject({
      version: 2,
      deploymentId: null,
    });
    const record = await keep({
      kind: 'deployment',
      contentType: 'application/json',
      sectionId: sectionOf('DEPLOYMENT'),
      fileName: deploymentFileName(2),
    });
    expect((await sites.current(project.id))?.deploymentId).toBe(record.id);

    // A publish finishing late leaves a newer current version in place.
    expect(
      await scratch.db.transaction((t) =>
        sites.advanceCurrent(t, project.id, 1, at),
      ),
    ).toBe(false);
    expect(await sites.currentVersion(project.id)).toBe(2);

    expect(
      await scratch.db.transaction((t) => sites.takeDown(t, project.id, at)),
    ).toBe(true);
    expect(
      await scratch.db.transaction((t) => sites.takeDown(t, project.id, at)),
    ).toBe(false);
    expect(await sites.currentVersion(project.id)).toBeUndefined();
    expect(await sites.current(project.id)).toBeUndefined();
    // After a take-down a publish brings the site back, an older one too.
    expect(
      await scratch.db.transaction((t) =>
        sites.advanceCurrent(t, project.id, 1, at),
      ),
    ).toBe(true);
    expect(await sites.currentVersion(project.id)).toBe(1);
  });
});
