import {
  logoAssetRecord,
  newLogoTask,
  openScratchSqlite,
  type ScratchSqlite,
} from '../../test/support/scratch-sqlite';
import { AssetsRepository } from '../assets/assets.repository';
import { newId } from '../common/ids';
import type { Transaction } from '../database/database.service';
import type { Project } from '../projects/entities/project.entity';
import { TasksRepository } from '../tasks/tasks.repository';
import { SectionsRepository } from './sections.repository';

describe('SectionsRepository (SQLite)', () => {
  let scratch: ScratchSqlite;
  let sections: SectionsRepository;
  let assets: AssetsRepository;
  let tasks: TasksRepository;
  let ann: Project;
  let bob: Project;
  let logoSection: string;

  beforeAll(async () => {
    scratch = await openScratchSqlite();
    sections = new SectionsRepository(scratch.changeLog);
    assets = new AssetsRepository(scratch.db, scratch.changeLog);
    tasks = new TasksRepository(scratch.db, scratch.changeLog);
    ann = await scratch.insertProject('ann', 'Ann');
    bob = await scratch.insertProject('bob', 'Bob');
    logoSection = ann.sections.find((s) => s.type === 'LOGO')!.id;
  });

  afterAll(() => scratch.close());

  const read = <T>(work: (transaction: Transaction) => Promise<T>) =>
    scratch.db.transaction(work);

  const keepAsset = (sectionId: string | null) =>
    scratch.changing(ann.id, async (transaction) => {
      const record = logoAssetRecord(ann, { sectionId });
      await assets.insert(transaction, record);
      return record.id;
    });

  it('finds a section only in its own project, with its choice and whether a task runs for it', async () => {
    await expect(
      read((t) => sections.findTarget(t, bob.id, logoSection)),
    ).resolves.toBeNull();
    await expect(
      read((t) => sections.findTarget(t, ann.id, logoSection)),
    ).resolves.toEqual({ selectedAssetId: null, running: false });

    const taskId = newId();
    await scratch.changing(ann.id, async (transaction) => {
      await tasks.insert(
        transaction,
        newLogoTask(ann.id, { id: taskId, sectionId: logoSection }),
      );
      await tasks.move(
        transaction,
        taskId,
        { statuses: ['QUEUED'] },
        {
          status: 'RUNNING',
        },
      );
    });
    await expect(
      read((t) => sections.findTarget(t, ann.id, logoSection)),
    ).resolves.toEqual({ selectedAssetId: null, running: true });
    await scratch.changing(ann.id, (transaction) =>
      tasks.move(
        transaction,
        taskId,
        { statuses: ['RUNNING'] },
        {
          status: 'CANCELLED',
        },
      ),
    );
  });

  it("tells an asset's section, null for one of no section, undefined for another project's", async () => {
    const inSection = await keepAsset(logoSection);
    const loose = await keepAsset(null);
    await expect(
      read((t) => sections.sectionOfAsset(t, ann.id, inSection)),
    ).resolves.toBe(logoSection);
    await expect(
      read((t) => sections.sectionOfAsset(t, ann.id, loose)),
    ).resolves.toBeNull();
    await expect(
      read((t) => sections.sectionOfAsset(t, bob.id, inSection)),
    ).resolves.toBeUndefined();
  });

  it('a choice is stored with its event, and can be taken back', async () => {
    const assetId = await keepAsset(logoSection);
    const { latest } = await scratch.changeLog.bounds();
    await scratch.changing(ann.id, (transaction) =>
      sections.setSelection(transaction, logoSection, assetId),
    );
    const chosen = await read((t) => sections.find(t, logoSection));
    expect(chosen).toMatchObject({ id: logoSection, selectedAssetId: assetId });
    expect(chosen.updatedAt).toMatch(/Z$/);
    const [event] = await scratch.changeLog.after(latest, {}, 10);
    expect(event).toMatchObject({
      type: 'section.updated',
      data: { sectionId: logoSection, selectedAssetId: assetId },
    });
    // The section as the project's answer shows it.
    expect((event.data as { section: unknown }).section).toEqual(chosen);
    await scratch.changing(ann.id, (transaction) =>
      sections.setSelection(transaction, logoSection, null),
    );
    await expect(
      read((t) => sections.findTarget(t, ann.id, logoSection)),
    ).resolves.toMatchObject({ selectedAssetId: null });
  });

  it('choosing for a section that does not exist changes nothing and records nothing', async () => {
    const { latest } = await scratch.changeLog.bounds();
    await read((transaction) =>
      sections.setSelection(transaction, newId(), null),
    );
    await expect(scratch.changeLog.after(latest, {}, 10)).resolves.toEqual([]);
  });
});
