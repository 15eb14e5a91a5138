import {
  newLogoTask,
  openScratchSqlite,
  type ScratchSqlite,
} from '../../../test/support/scratch-sqlite';
import { newId } from '../../common/ids';
import { sqlFor } from '../../database/sql';
import type { TaskStatus } from '../dto/task.dto';
import { TasksRepository } from '../tasks.repository';
import { TaskScheduleRepository } from './task-schedule.repository';

const T0 = new Date('2026-03-01T12:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe('TaskScheduleRepository (SQLite)', () => {
  let scratch: ScratchSqlite;
  let schedule: TaskScheduleRepository;
  let tasks: TasksRepository;
  let projectId: string;

  beforeAll(async () => {
    scratch = await openScratchSqlite();
    schedule = new TaskScheduleRepository(scratch.db);
    tasks = new TasksRepository(scratch.db, scratch.changeLog);
    projectId = (await scratch.insertProject()).id;
  });

  afterAll(() => scratch.close());

  beforeEach(() =>
    scratch.db.write((manager) => manager.query('DELETE FROM "tasks"')),
  );

  /** A task queued at `createdAt` with its owner's backlog `queuePlace`. */
  async function queue(createdAt: Date, queuePlace: number): Promise<string> {
    const id = newId();
    await scratch.changing(projectId, async (transaction) => {
      await tasks.insert(
        transaction,
        newLogoTask(projectId, { id, createdAt, queuePlace }),
      );
    });
    return id;
  }

  async function set(
    id: string,
    row: { status?: TaskStatus; leaseUntil?: Date | null; runAfter?: Date },
  ): Promise<void> {
    await scratch.db.write(async (manager) => {
      const sql = sqlFor(manager);
      for (const [column, value] of Object.entries(row)) {
        await sql.changes(
          `UPDATE "tasks" SET "${column}" = $1 WHERE "id" = $2`,
          [value instanceof Date ? sql.timestamp(value) : value, id],
        );
      }
    });
  }

  async function leaseOf(id: string): Promise<string | null> {
    const [row] = await scratch.db.read((manager) =>
      sqlFor(manager).rows<{ leaseUntil: string | null; runAfter: string }>(
        'SELECT "leaseUntil" FROM "tasks" WHERE "id" = $1',
        [id],
      ),
    );
    return row.leaseUntil;
  }

  async function runAfterOf(id: string): Promise<string> {
    const [row] = await scratch.db.read((manager) =>
      sqlFor(manager).rows<{ runAfter: string }>(
        'SELECT "runAfter" FROM "tasks" WHERE "id" = $1',
        [id],
      ),
    );
    return row.runAfter;
  }

  const stored = (date: Date) =>
    date.toISOString().replace('T', ' ').slice(0, 23);

  it('takes nothing when no task is due', async () => {
    await expect(schedule.take(T0, at(30))).resolves.toBeUndefined();
    const later = await queue(at(10), 0);
    await expect(schedule.take(T0, at(30))).resolves.toBeUndefined();
    await expect(schedule.take(at(10), at(40))).resolves.toBe(later);
  });

  it("takes a user's first task before anyone's second (lowest place first), oldest first among equals", async () => {
    const second = await queue(at(-30), 1);
    const firstOld = await queue(at(-20), 0);
    const firstNew = await queue(at(-10), 0);
    const taken: Array<string | undefined> = [];
    for (let n = 0; n < 3; n++) {
      const id = await schedule.take(T0, at(30));
      taken.push(id);
      // Its runner claims it: no longer queued.
      await set(id!, { status: 'RUNNING' });
    }
    expect(taken).toEqual([firstOld, firstNew, second]);
  });

  it('leases the task it takes until the time given', async () => {
    const id = await queue(at(-1), 0);
    await schedule.take(T0, at(30));
    await expect(leaseOf(id)).resolves.toBe(stored(at(30)));
  });

  it("takes a running task only once its worker's lease has run out", async () => {
    const id = await queue(at(-60), 0);
    await set(id, { status: 'RUNNING', leaseUntil: at(5) });
    await expect(schedule.take(T0, at(30))).resolves.toBeUndefined();
    await expect(schedule.take(at(6), at(36))).resolves.toBe(id);
    await expect(leaseOf(id)).resolves.toBe(stored(at(36)));
  });

  it('prefers a due queued task to a running one whose worker died', async () => {
    const lost = await queue(at(-60), 0);
    await set(lost, { status: 'RUNNING', leaseUntil: at(-1) });
    const waiting = await queue(at(-5), 3);
    await expect(schedule.take(T0, at(30))).resolves.toBe(waiting);
  });

  it('never takes a finished task, whatever its lease', async () => {
    for (const status of ['SUCCEEDED', 'FAILED', 'CANCELLED'] as const) {
      const id = await queue(at(-60), 0);
      await set(id, { status, leaseUntil: at(-1) });
    }
    await expect(schedule.take(T0, at(30))).resolves.toBeUndefined();
  });

  it('renew moves the lease on; release drops it and sets when the task may run again', async () => {
    const id = await queue(at(-1), 0);
    await schedule.take(T0, at(30));
    await schedule.renew(id, at(60));
    await expect(leaseOf(id)).resolves.toBe(stored(at(60)));
    await schedule.release(id, at(90));
    await expect(leaseOf(id)).resolves.toBeNull();
    await expect(runAfterOf(id)).resolves.toBe(stored(at(90)));
    // Queued again by its runner (a retry): not before its time.
    await expect(schedule.take(at(89), at(119))).resolves.toBeUndefined();
    await expect(schedule.take(at(90), at(120))).resolves.toBe(id);
  });
});
