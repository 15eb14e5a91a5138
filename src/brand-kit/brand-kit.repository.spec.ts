import {
  logoAssetRecord,
  openScratchSqlite,
  type ScratchSqlite,
} from '../../test/support/scratch-sqlite';
import { AssetsRepository } from '../assets/assets.repository';
import type { AssetRecord } from '../assets/dto/asset.dto';
import { newId } from '../common/ids';
import type { Project } from '../projects/entities/project.entity';
import { BrandKitRepository } from './brand-kit.repository';
import { kitFilePrompt } from './kit-file-prompt';

describe('BrandKitRepository (SQLite)', () => {
  let scratch: ScratchSqlite;
  let kits: BrandKitRepository;
  let assets: AssetsRepository;
  let project: Project;
  let other: Project;

  beforeAll(async () => {
    scratch = await openScratchSqlite();
    kits = new BrandKitRepository(scratch.db);
    assets = new AssetsRepository(scratch.db, scratch.changeLog);
    project = await scratch.insertProject('ann', 'Acme');
    other = await scratch.insertProject('bob', 'Other');
  });

  afterAll(() => scratch.close());

  const sectionOf = (of: Project, type: string) =>
    of.sections.find((section) => section.type === type)!.id;

  /** Keeps an asset as the services do: in a change of its project. */
  const keep = (
    of: Project,
    fields: Partial<AssetRecord> & Pick<AssetRecord, 'kind' | 'contentType'>,
  ) =>
    scratch.changing(of.id, async (transaction) => {
      const record = logoAssetRecord(of, fields);
      await assets.insert(transaction, record);
      return record;
    });

  const choose = (of: Project, assetId: string | null) =>
    scratch.db.write((manager) =>
      manager.query(
        'UPDATE "sections" SET "selectedAssetId" = ? WHERE "id" = ?',
        [assetId, sectionOf(of, 'LOGO')],
      ),
    );

  it("a kit's logo is the LOGO section's chosen asset; none chosen, none", async () => {
    expect(await kits.chosenLogoOf(project.id)).toBeUndefined();
    const logo = await keep(project, {
      kind: 'logo',
      contentType: 'image/png',
    });
    await choose(project, logo.id);
    expect(await kits.chosenLogoOf(project.id)).toBe(logo.id);
    await choose(project, null);
  });

  it("a kit is made only from a raster image of the project's own", async () => {
    const png = await keep(project, { kind: 'logo', contentType: 'image/png' });
    const svg = await keep(project, {
      kind: 'logo',
      contentType: 'image/svg+xml',
    });
    const elsewhere = await keep(other, {
      kind: 'logo',
      contentType: 'image/png',
    });
    const source = (assetId: string) =>
      scratch.db.transaction((transaction) =>
        kits.imageAsset(transaction, project.id, assetId),
      );
    expect(await source(png.id)).toEqual({ id: png.id, prompt: 'a logo' });
    expect(await source(svg.id)).toBeUndefined();
    expect(await source(elsewhere.id)).toBeUndefined();
  });

  it("a logo's kit files are read newest first, and only those made from it", async () => {
    const logo = await keep(project, {
      kind: 'logo',
      contentType: 'image/png',
    });
    const older = await keep(project, {
      kind: 'brand-kit',
      contentType: 'image/png',
      prompt: kitFilePrompt('logo.png', logo.id),
      fileName: 'logo.png',
      createdAt: '2026-03-01T12:00:00.000Z',
    });
    const newer = await keep(project, {
      kind: 'brand-kit',
      contentType: 'image/png',
      prompt: kitFilePrompt('logo.png', logo.id),
      createdAt: '2026-03-02T12:00:00.000Z',
    });
    await keep(project, {
      kind: 'brand-kit',
      contentType: 'image/png',
      prompt: kitFilePrompt('logo.png', newId()),
    });
    const files = await kits.kitFiles(project.id, logo.id);
    expect(files.map((file) => file.id)).toEqual([newer.id, older.id]);
    expect(files[1].fileName).toBe('logo.png');
  });
});
