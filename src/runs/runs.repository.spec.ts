import {
  newLogoTask,
  openScratchSqlite,
  type ScratchSqlite,
} from '../../test/support/scratch-sqlite';
import { newId } from '../common/ids';
import type { Project } from '../projects/entities/project.entity';
import { TasksRepository } from '../tasks/tasks.repository';
import type { RunStepType } from './run-graph';
import { RunsRepository } from './runs.repository';

const QUOTE = { imageCalls: 1, textCalls: 1, maxFixes: 0 };

describe('RunsRepository (SQLite)', () => {
  let scratch: ScratchSqlite;
  let runs: RunsRepository;
  let tasks: TasksRepository;
  let ann: Project;
  let bob: Project;

  beforeAll(async () => {
    scratch = await openScratchSqlite();
    runs = new RunsRepository(scratch.db, scratch.changeLog);
    tasks = new TasksRepository(scratch.db, scratch.changeLog);
    ann = await scratch.insertProject('ann', 'Ann');
    bob = await scratch.insertProject('bob', 'Bob');
  });

  afterAll(() => scratch.close());

  beforeEach(() =>
    scratch.db.write(async (manager) => {
      await manager.query('DELETE FROM "run_steps"');
      await manager.query('DELETE FROM "runs"');
    }),
  );

  const create = (
    project: Project,
    steps: RunStepType[] = ['logo', 'icon-set'],
    createdAt = new Date(),
  ) =>
    scratch.changing(project.id, (transaction) =>
      runs.insert(transaction, {
        id: newId(),
        projectId: project.id,
        autoChoose: true,
        input: { logo: { count: 1 } },
        quote: QUOTE,
        steps,
        createdAt,
      }),
    );

  it('stores a run QUEUED with its steps PENDING, and records run.updated with it', async () => {
    const { latest } = await scratch.changeLog.bounds();
    const run = await create(ann);
    expect(run).toMatchObject({
      projectId: ann.id,
      status: 'QUEUED',
      autoChoose: true,
      quote: QUOTE,
      steps: [
        { type: 'logo', taskId: null, status: 'PENDING' },
        { type: 'icon-set', taskId: null, status: 'PENDING' },
      ],
    });
    expect(await runs.find(ann.id, run.id, 'ann')).toEqual(run);
    expect(await runs.find(ann.id, run.id, 'bob')).toBeUndefined();
    expect(await runs.find(bob.id, run.id, undefined)).toBeUndefined();
    const events = await scratch.changeLog.after(latest, {}, 10);
    expect(events.map((event) => [event.type, event.data])).toContainEqual([
      'run.updated',
      expect.objectContaining({ runId: run.id, status: 'QUEUED', run }),
    ]);
  });

  it('moves a step and a run by compare-and-set only', async () => {
    const run = await create(ann);
    const moved = await scratch.changing(ann.id, async (transaction) => [
      await runs.moveStep(transaction, run.id, 0, ['PENDING'], {
        status: 'QUEUED',
        taskId: 'task-1',
        detail: { basis: { LOGO: null } },
      }),
      await runs.moveStep(transaction, run.id, 0, ['PENDING'], {
        status: 'QUEUED',
        taskId: 'task-2',
      }),
      await runs.moveRun(transaction, run.id, ['QUEUED'], {
        status: 'RUNNING',
      }),
      await runs.moveRun(transaction, run.id, ['QUEUED'], {
        status: 'FAILED',
      }),
      await runs.announce(transaction, run.id).then(() => true),
    ]);
    expect(moved).toEqual([true, false, true, false, true]);
    const state = await runs.state(run.id);
    expect(state?.run.status).toBe('RUNNING');
    expect(state?.steps[0]).toMatchObject({
      status: 'QUEUED',
      taskId: 'task-1',
      detail: { basis: { LOGO: null } },
    });
    expect(await runs.runOfTask('task-1')).toBe(run.id);
    expect(await runs.runOfTask('task-2')).toBeUndefined();
  });

  it("reads a run's state: its steps with their tasks, and the project's choices and section ids", async () => {
    const run = await create(ann);
    const task = newLogoTask(ann.id);
    await scratch.changing(ann.id, async (transaction) => {
      await tasks.insert(transaction, task);
      await runs.moveStep(transaction, run.id, 0, ['PENDING'], {
        status: 'QUEUED',
        taskId: task.id,
      });
      await runs.insertStep(transaction, run.id, {
        position: 2,
        type: 'icon-set',
        attempt: 2,
        detail: { fixReportId: 'r' },
      });
      await runs.announce(transaction, run.id);
    });
    const state = await runs.state(run.id);
    expect(
      state?.steps.map((s) => [s.type, s.attempt, s.task?.status]),
    ).toEqual([
      ['logo', 1, 'QUEUED'],
      ['icon-set', 1, undefined],
      ['icon-set', 2, undefined],
    ]);
    expect(state?.steps[2].detail).toEqual({ fixReportId: 'r' });
    expect(state?.choices).toMatchObject({ LOGO: null, CODE: null });
    expect(state?.sectionIds.LOGO).toBe(
      ann.sections.find((s) => s.type === 'LOGO')!.id,
    );
    const shown = await runs.find(ann.id, run.id, undefined);
    expect(shown?.steps[2]).toEqual({
      type: 'icon-set',
      taskId: null,
      status: 'PENDING',
      attempt: 2,
    });
  });

  it("counts an owner's open runs, lists a project's, and sweeps open runs and finished ones with tasks unfinished", async () => {
    const open = await create(ann);
    const finished = await create(ann);
    const done = await create(bob);
    await scratch.changing(ann.id, async (transaction) => {
      await runs.moveStep(transaction, finished.id, 0, ['PENDING'], {
        status: 'RUNNING',
        taskId: 't',
      });
      await runs.moveRun(transaction, finished.id, ['QUEUED'], {
        status: 'FAILED',
      });
      await runs.announce(transaction, finished.id);
    });
    await scratch.changing(bob.id, async (transaction) => {
      await runs.moveRun(transaction, done.id, ['QUEUED'], {
        status: 'SUCCEEDED',
      });
      await runs.announce(transaction, done.id);
    });
    const counts = await scratch.changing(ann.id, async (transaction) => {
      const result = [
        await runs.openCountOfUser(transaction, 'ann'),
        await runs.openCountOfUser(transaction, 'bob'),
      ];
      await runs.announce(transaction, open.id);
      return result;
    });
    expect(counts).toEqual([1, 0]);
    expect(await runs.openRunsOf(ann.id, 10)).toEqual([open.id]);
    expect((await runs.sweepable(10)).sort()).toEqual(
      [open.id, finished.id].sort(),
    );
  });

  it('pages newest first after a cursor', async () => {
    const first = await create(ann, ['logo'], new Date('2026-11-29T10:00:00Z'));
    const second = await create(
      ann,
      ['logo'],
      new Date('2026-11-29T10:00:01Z'),
    );
    expect((await runs.page(ann.id, 5, undefined)).map((r) => r.id)).toEqual([
      second.id,
      first.id,
    ]);
    const after = await runs.page(ann.id, 5, {
      createdAt: new Date(second.createdAt),
      id: second.id,
    });
    expect(after.map((r) => r.id)).toEqual([first.id]);
  });
});
