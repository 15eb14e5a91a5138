import {
  logoAssetRecord,
  openScratchSqlite,
  type ScratchSqlite,
} from '../../test/support/scratch-sqlite';
import { AssetsRepository } from '../assets/assets.repository';
import type { AssetRecord } from '../assets/dto/asset.dto';
import type { Project } from '../projects/entities/project.entity';
import { SiteSourcesRepository } from './site-sources.repository';

describe('SiteSourcesRepository (SQLite)', () => {
  let scratch: ScratchSqlite;
  let sources: SiteSourcesRepository;
  let assets: AssetsRepository;
  let project: Project;

  beforeAll(async () => {
    scratch = await openScratchSqlite();
    sources = new SiteSourcesRepository(scratch.db);
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

  it("finds a site's parts: the chosen page, reports newest first, the kit's newest files, the og graphic", async () => {
    const other = await scratch.insertProject('bob', 'Other');
    expect(await sources.chosenPage(other.id)).toBeUndefined();
    const page = await keep({
      kind: 'landing-page',
      contentType: 'text/html',
      sectionId: sectionOf('CODE'),
    });
    await scratch.db.write((manager) =>
      manager.query(
        'UPDATE "sections" SET "selectedAssetId" = ? WHERE "id" = ?',
        [page.id, sectionOf('CODE')],
      ),
    );
    expect(await sources.chosenPage(project.id)).toBe(page.id);

    const older = await keep({
      kind: 'site-report',
      contentType: 'application/json',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const newer = await keep({
      kind: 'site-report',
      contentType: 'application/json',
      createdAt: '2026-01-02T00:00:00.000Z',
    });
    expect(await sources.newestReports(project.id, 5)).toEqual([
      newer.id,
      older.id,
    ]);
    expect(await sources.newestReports(project.id, 1)).toEqual([newer.id]);

    const icon = await keep({
      kind: 'brand-kit',
      contentType: 'image/x-icon',
      fileName: 'favicon.ico',
    });
    await keep({
      kind: 'brand-kit',
      contentType: 'image/png',
      fileName: 'logo.png',
    });
    const kit = await sources.kitFiles(project.id, [
      'favicon.ico',
      'icon-192.png',
    ]);
    expect([...kit]).toEqual([['favicon.ico', icon.id]]);

    expect(await sources.ogGraphic(project.id)).toBeUndefined();
    const og = await keep({ kind: 'graphic', fileName: 'og.png' });
    await keep({ kind: 'graphic', fileName: 'x.png' });
    expect(await sources.ogGraphic(project.id)).toBe(og.id);
  });
});
