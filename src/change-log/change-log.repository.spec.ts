import {
  openScratchSqlite,
  type ScratchSqlite,
} from '../../test/support/scratch-sqlite';
import type { Transaction } from '../database/database.service';
import { sqlFor } from '../database/sql';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import { projectETag } from '../project-scope/project-version';
import type { Project } from '../projects/entities/project.entity';
import { EVENT_DATA_LIMIT_BYTES } from './change-event';
import type { ChangeLog } from './change-log.repository';

describe('ChangeLog (SQLite)', () => {
  let scratch: ScratchSqlite;
  let log: ChangeLog;
  let ann: Project;
  let bob: Project;

  beforeAll(async () => {
    scratch = await openScratchSqlite();
    log = scratch.changeLog;
    ann = await scratch.insertProject('ann', 'Ann');
    bob = await scratch.insertProject('bob', 'Bob');
  });

  afterAll(() => scratch.close());

  const advance = (transaction: Transaction, projectId: string) =>
    scratch.scope.advance(transaction, {
      projectId,
      missing: () => new ProjectNotFoundException(),
    });

  const sectionEvent = (sectionId: string, status: string) =>
    ({
      type: 'section.updated',
      key: sectionId,
      data: { sectionId, status },
    }) as const;

  /** Records one section event of the project in its own change. */
  const change = (project: Project, status = 'READY') =>
    scratch.db.transaction(async (transaction) => {
      const version = await advance(transaction, project.id);
      log.record(
        transaction,
        project.id,
        sectionEvent(project.sections[0].id, status),
      );
      return version;
    });

  const latest = async () => (await log.bounds()).latest;

  it("an event commits with its change, carrying the project's new ETag and owner", async () => {
    const before = await latest();
    const version = await change(ann);
    const [event] = await log.after(before, {}, 10);
    expect(event).toMatchObject({
      type: 'section.updated',
      projectId: ann.id,
      userId: 'ann',
      data: {
        sectionId: ann.sections[0].id,
        status: 'READY',
        etag: projectETag(version),
      },
    });
  });

  it('an event whose data passes the size bound is kept without its bulky part, marked truncated, its ids and ETag kept', async () => {
    const before = await latest();
    const sectionId = ann.sections[2].id;
    const big = 'x'.repeat(EVENT_DATA_LIMIT_BYTES);
    await scratch.db.transaction(async (transaction) => {
      await advance(transaction, ann.id);
      log.record(transaction, ann.id, {
        type: 'section.updated',
        key: sectionId,
        data: { sectionId, status: 'READY', section: { id: sectionId, big } },
      });
      log.record(transaction, ann.id, {
        type: 'section.updated',
        key: ann.sections[3].id,
        data: {
          sectionId: ann.sections[3].id,
          section: { id: ann.sections[3].id },
        },
      });
    });
    const [cut, whole] = await log.after(before, {}, 10);
    expect(cut.data).toEqual({
      sectionId,
      status: 'READY',
      truncated: true,
      etag: expect.any(String) as unknown,
    });
    expect(whole.data).toMatchObject({
      section: { id: ann.sections[3].id },
    });
    expect(whole.data).not.toHaveProperty('truncated');
  });

  it('an event of a change that rolls back is never written', async () => {
    const before = await latest();
    await expect(
      scratch.db.transaction(async (transaction) => {
        await advance(transaction, ann.id);
        log.record(transaction, ann.id, sectionEvent('s', 'READY'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await expect(log.after(before, {}, 10)).resolves.toEqual([]);
  });

  it("a change that moves a project's version without an event is refused whole", async () => {
    const versionOf = () =>
      scratch.db.read(async (manager) => {
        const [row] = await sqlFor(manager).rows<{ version: number }>(
          'SELECT "version" FROM "projects" WHERE "id" = $1',
          [ann.id],
        );
        return Number(row.version);
      });
    const version = await versionOf();
    await expect(
      scratch.db.transaction((transaction) => advance(transaction, ann.id)),
    ).rejects.toThrow(/changed without a change event/);
    await expect(versionOf()).resolves.toBe(version);
  });

  it('an event of a project whose version did not move is refused', async () => {
    const before = await latest();
    await expect(
      scratch.db.transaction(async (transaction) => {
        await advance(transaction, ann.id);
        log.record(transaction, ann.id, sectionEvent('s', 'READY'));
        log.record(transaction, bob.id, sectionEvent('t', 'READY'));
      }),
    ).rejects.toThrow(/without moving its version/);
    await expect(log.after(before, {}, 10)).resolves.toEqual([]);
  });

  it('two events of one thing in one change become one, the later data completing the earlier', async () => {
    const before = await latest();
    const sectionId = ann.sections[1].id;
    await scratch.db.transaction(async (transaction) => {
      await advance(transaction, ann.id);
      log.record(transaction, ann.id, sectionEvent(sectionId, 'GENERATING'));
      log.record(transaction, ann.id, {
        type: 'section.updated',
        key: sectionId,
        data: { sectionId, selectedAssetId: 'asset-1' },
      });
      log.record(transaction, ann.id, sectionEvent(sectionId, 'READY'));
    });
    const events = await log.after(before, {}, 10);
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({
      sectionId,
      status: 'READY',
      selectedAssetId: 'asset-1',
    });
  });

  it("reads events after an id in id order, at most `limit`, of one user's or one project's", async () => {
    const before = await latest();
    await change(ann, 'A');
    await change(bob, 'B');
    await change(ann, 'C');
    const all = await log.after(before, {}, 10);
    expect(all.map((event) => Number(event.id))).toEqual(
      [...all.map((event) => Number(event.id))].sort((a, b) => a - b),
    );
    expect(all.map((event) => event.projectId)).toEqual([
      ann.id,
      bob.id,
      ann.id,
    ]);
    await expect(log.after(before, {}, 2)).resolves.toHaveLength(2);
    const bobs = await log.after(before, { userId: 'bob' }, 10);
    expect(bobs.map((event) => event.projectId)).toEqual([bob.id]);
    const anns = await log.after(before, { projectId: ann.id }, 10);
    expect(anns).toHaveLength(2);
    await expect(
      log.after(before, { userId: 'bob', projectId: ann.id }, 10),
    ).resolves.toEqual([]);
    await expect(log.after(Number(all[0].id), {}, 10)).resolves.toHaveLength(2);
  });

  it('tells its listeners after a commit that wrote events, never after a rollback', async () => {
    const listener = jest.fn();
    const stop = log.onAppended(listener);
    await expect(
      scratch.db.transaction(async (transaction) => {
        await advance(transaction, ann.id);
        log.record(transaction, ann.id, sectionEvent('s', 'READY'));
        expect(listener).not.toHaveBeenCalled();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(listener).not.toHaveBeenCalled();
    await change(ann);
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    await change(ann);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('purges the oldest events made before a time, a batch at a time, and remembers the highest id purged', async () => {
    await change(ann);
    await change(ann);
    const { latest: newest } = await log.bounds();
    const later = new Date(Date.now() + 60_000);
    const earlier = new Date(Date.now() - 60_000);

    await expect(log.purgeBatch(earlier, 100)).resolves.toBe(0);
    const purgedOne = await log.purgeBatch(later, 1);
    expect(purgedOne).toBe(1);
    const afterOne = await log.bounds();
    expect(afterOne.purgedThrough).toBeGreaterThan(0);
    expect(afterOne.latest).toBe(newest);

    await log.purgeBatch(later, 1000);
    const afterAll = await log.bounds();
    // Every event is gone, but the ids given stay known.
    expect(afterAll).toEqual({ latest: newest, purgedThrough: newest });
    await expect(log.after(0, {}, 10)).resolves.toEqual([]);

    // New ids go on after the purged ones.
    await change(ann);
    const [next] = await log.after(newest, {}, 10);
    expect(Number(next.id)).toBeGreaterThan(newest);
  });
});
