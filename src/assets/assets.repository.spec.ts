import {
  logoAssetRecord,
  openScratchSqlite,
  type ScratchSqlite,
} from '../../test/support/scratch-sqlite';
import { newId } from '../common/ids';
import type { Project } from '../projects/entities/project.entity';
import { ASSET_PART_BYTES, AssetsRepository } from './assets.repository';
import type { AssetRecord } from './dto/asset.dto';

describe('AssetsRepository (SQLite)', () => {
  let scratch: ScratchSqlite;
  let assets: AssetsRepository;
  let ann: Project;
  let bob: Project;

  beforeAll(async () => {
    scratch = await openScratchSqlite();
    assets = new AssetsRepository(scratch.db, scratch.changeLog);
    ann = await scratch.insertProject('ann', 'Ann');
    bob = await scratch.insertProject('bob', 'Bob');
  });

  afterAll(() => scratch.close());

  beforeEach(() =>
    scratch.db.write(async (manager) => {
      await manager.query('DELETE FROM "asset_slot_reservations"');
      await manager.query('DELETE FROM "assets"');
    }),
  );

  const recordOf = (project: Project): AssetRecord =>
    logoAssetRecord(project, { createdAt: '2026-03-01T12:00:00.000Z' });

  const keep = (
    project: Project,
    bytes?: Buffer,
    kit?: { name: string; logoId: string },
  ) =>
    scratch.changing(project.id, async (transaction) => {
      const record: AssetRecord = kit
        ? {
            ...recordOf(project),
            kind: 'brand-kit',
            prompt: `${kit.name} from logo ${kit.logoId}`,
          }
        : recordOf(project);
      await assets.insert(transaction, record);
      if (bytes) await assets.insertContent(transaction, record.id, bytes);
      return record;
    });

  const reserve = (project: Project, max: number, expiresAt: number) =>
    scratch.db.transaction((transaction) =>
      assets.reserveSlot(transaction, project.id, max, {
        id: newId(),
        expiresAt,
      }),
    );

  it('an asset reads back as kept, and records its event with the asset as stored (its url is made when sent)', async () => {
    const { latest } = await scratch.changeLog.bounds();
    const kept = await keep(ann);
    await expect(assets.find(ann.id, kept.id)).resolves.toEqual(kept);
    const [event] = await scratch.changeLog.after(latest, {}, 10);
    expect(event).toMatchObject({
      type: 'asset.created',
      data: { assetId: kept.id, sectionId: kept.sectionId, kind: 'logo' },
    });
    expect((event.data as { asset: unknown }).asset).toEqual(kept);
  });

  it("finds an asset only in its own project, and only in the owner's project when an owner is given", async () => {
    const kept = await keep(ann);
    await expect(assets.find(ann.id, kept.id, 'ann')).resolves.toEqual(kept);
    await expect(assets.find(ann.id, kept.id, 'bob')).resolves.toBeNull();
    await expect(assets.find(bob.id, kept.id)).resolves.toBeNull();
  });

  it("a slot is taken only while the project's assets and slots taken stay under the most allowed", async () => {
    const later = Date.now() + 60_000;
    await keep(ann);
    await expect(reserve(ann, 3, later)).resolves.toBe('reserved');
    await expect(reserve(ann, 3, later)).resolves.toBe('reserved');
    await expect(reserve(ann, 3, later)).resolves.toBe('full');
    // Another project's room is its own.
    await expect(reserve(bob, 3, later)).resolves.toBe('reserved');
  });

  it('a slot whose time ran out counts no more; one given back frees its place', async () => {
    await expect(reserve(ann, 1, Date.now() - 1)).resolves.toBe('reserved');
    const id = newId();
    await expect(
      scratch.db.transaction((transaction) =>
        assets.reserveSlot(transaction, ann.id, 1, {
          id,
          expiresAt: Date.now() + 60_000,
        }),
      ),
    ).resolves.toBe('reserved');
    await expect(reserve(ann, 1, Date.now() + 60_000)).resolves.toBe('full');
    await assets.releaseSlot(id);
    await expect(reserve(ann, 1, Date.now() + 60_000)).resolves.toBe(
      'reserved',
    );
  });

  it('counts the assets of one project only, slots not included', async () => {
    await keep(ann);
    await keep(ann);
    await keep(bob);
    await reserve(ann, 10, Date.now() + 60_000);
    await expect(
      scratch.db.transaction((transaction) =>
        assets.countOfProject(transaction, ann.id),
      ),
    ).resolves.toBe(2);
  });

  it('brand kit files count neither against the limit nor for a slot', async () => {
    await keep(ann);
    await keep(ann, undefined, { name: 'favicon.ico', logoId: 'l1' });
    await keep(ann, undefined, { name: 'logo.png', logoId: 'l1' });
    await expect(
      scratch.db.transaction((transaction) =>
        assets.countOfProject(transaction, ann.id),
      ),
    ).resolves.toBe(1);
    await expect(reserve(ann, 2, Date.now() + 60_000)).resolves.toBe(
      'reserved',
    );
  });

  it("a kit file replaces the project's files of its name, whichever logo they came from, and only those", async () => {
    const older = await keep(ann, Buffer.from('old'), {
      name: 'favicon.ico',
      logoId: 'l1',
    });
    const otherName = await keep(ann, undefined, {
      name: 'favicon.ico.png',
      logoId: 'l1',
    });
    const bobs = await keep(bob, undefined, {
      name: 'favicon.ico',
      logoId: 'l1',
    });
    const logo = await keep(ann);
    const newer = await keep(ann, undefined, {
      name: 'favicon.ico',
      logoId: 'l2',
    });
    const { latest } = await scratch.changeLog.bounds();
    const replaced = await scratch.changing(ann.id, (transaction) =>
      assets.deleteReplaced(transaction, {
        projectId: ann.id,
        kind: 'brand-kit',
        promptStart: 'favicon.ico from logo ',
        keptId: newer.id,
      }),
    );
    expect(replaced).toEqual([older.id]);
    await expect(assets.find(ann.id, older.id)).resolves.toBeNull();
    await expect(assets.countContentParts(older.id)).resolves.toBe(0);
    for (const still of [newer, logo, otherName]) {
      await expect(assets.find(ann.id, still.id)).resolves.not.toBeNull();
    }
    await expect(assets.find(bob.id, bobs.id)).resolves.not.toBeNull();
    const events = await scratch.changeLog.after(latest, {}, 10);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'asset.deleted',
        data: expect.objectContaining({ assetId: older.id }) as unknown,
      }),
    ]);
  });

  it('keeps bytes in parts of ASSET_PART_BYTES, read back part by part; they go with the row', async () => {
    const bytes = Buffer.alloc(ASSET_PART_BYTES * 2 + 10, 7);
    const kept = await keep(ann, bytes);
    await expect(assets.countContentParts(kept.id)).resolves.toBe(3);
    const parts = [
      await assets.readContentPart(kept.id, 0),
      await assets.readContentPart(kept.id, 1),
      await assets.readContentPart(kept.id, 2),
    ];
    expect(parts.map((part) => part?.length)).toEqual([
      ASSET_PART_BYTES,
      ASSET_PART_BYTES,
      10,
    ]);
    expect(Buffer.concat(parts as Buffer[]).equals(bytes)).toBe(true);
    await expect(assets.readContentPart(kept.id, 3)).resolves.toBeNull();

    await scratch.changing(ann.id, (transaction) =>
      assets.delete(transaction, { projectId: ann.id, assetId: kept.id }),
    );
    await expect(assets.countContentParts(kept.id)).resolves.toBe(0);
  });

  it('deletes an asset only from its own project; false when it was not there', async () => {
    const kept = await keep(ann);
    await expect(
      scratch.db.transaction((transaction) =>
        assets.delete(transaction, { projectId: bob.id, assetId: kept.id }),
      ),
    ).resolves.toBe(false);
    await expect(
      scratch.changing(ann.id, (transaction) =>
        assets.delete(transaction, { projectId: ann.id, assetId: kept.id }),
      ),
    ).resolves.toBe(true);
    await expect(assets.find(ann.id, kept.id)).resolves.toBeNull();
  });

  it("deleting a chosen asset clears the section's choice with the section's event", async () => {
    const kept = await keep(ann);
    const sectionId = kept.sectionId!;
    await scratch.db.write((manager) =>
      manager.query(
        'UPDATE "sections" SET "selectedAssetId" = ? WHERE "id" = ?',
        [kept.id, sectionId],
      ),
    );
    const { latest } = await scratch.changeLog.bounds();
    await scratch.changing(ann.id, (transaction) =>
      assets.delete(transaction, { projectId: ann.id, assetId: kept.id }),
    );
    const events = await scratch.changeLog.after(latest, {}, 10);
    const section = events.find((event) => event.type === 'section.updated');
    expect(section?.data).toMatchObject({
      sectionId,
      selectedAssetId: null,
      section: { id: sectionId, projectId: ann.id, selectedAssetId: null },
    });
    expect(events.map((event) => event.type).sort()).toEqual([
      'asset.deleted',
      'section.updated',
    ]);
  });

  it('tells which of many ids have a row, past one batch', async () => {
    const kept = [await keep(ann), await keep(bob)];
    const asked = [
      ...Array.from({ length: 150 }, () => newId()),
      kept[0].id,
      kept[1].id,
    ];
    await expect(assets.existingAssetIds(asked)).resolves.toEqual(
      new Set(kept.map((asset) => asset.id)),
    );
    await expect(assets.existingAssetIds([])).resolves.toEqual(new Set());
  });

  it('lists unsized raster images after a cursor, in id order; a size is set once', async () => {
    const first = await keep(ann);
    const second = await keep(bob);
    const icon = await scratch.changing(ann.id, async (transaction) => {
      const record = { ...recordOf(ann), contentType: 'image/x-icon' };
      await assets.insert(transaction, record);
      return record;
    });
    const sized = await scratch.changing(ann.id, async (transaction) => {
      const record = { ...recordOf(ann), width: 10, height: 10 };
      await assets.insert(transaction, record);
      return record;
    });
    const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);
    const [low, high] = [first.id, second.id].sort();
    await expect(assets.unsized('', 10).then(ids)).resolves.toEqual([
      low,
      high,
    ]);
    await expect(assets.unsized(low, 10).then(ids)).resolves.toEqual([high]);
    await expect(assets.unsized('', 1).then(ids)).resolves.toEqual([low]);
    expect(ids(await assets.unsized('', 10))).not.toContain(icon.id);
    expect(ids(await assets.unsized('', 10))).not.toContain(sized.id);

    await assets.setSize(first.id, { width: 64, height: 32 });
    await assets.setSize(first.id, { width: 1, height: 1 });
    await expect(assets.find(ann.id, first.id)).resolves.toMatchObject({
      width: 64,
      height: 32,
      fileName: 'logo.png',
    });
    expect(ids(await assets.unsized('', 10))).toEqual([second.id]);
  });
});
