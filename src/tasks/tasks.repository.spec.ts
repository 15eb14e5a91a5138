import type { TaskDto } from './dto/task.dto';
import {
  newLogoTask,
  openScratchSqlite,
  type ScratchSqlite,
} from '../../test/support/scratch-sqlite';
import { newId } from '../common/ids';
import { isoTimestamp, sqlFor } from '../database/sql';
import type { Project } from '../projects/entities/project.entity';
import type { TaskStatus } from './dto/task.dto';
import { TasksRepository, type TaskChange } from './tasks.repository';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);

/** What a move expects of the task it moves (the compare of its compare-and-set). */
type Expected = Parameters<TasksRepository['move']>[2];

describe('TasksRepository (SQLite)', () => {
  let scratch: ScratchSqlite;
  let tasks: TasksRepository;
  let ann: Project;
  let annOther: Project;
  let bob: Project;

  beforeAll(async () => {
    scratch = await openScratchSqlite();
    tasks = new TasksRepository(scratch.db, scratch.changeLog);
    ann = await scratch.insertProject('ann', 'Ann one');
    annOther = await scratch.insertProject('ann', 'Ann two');
    bob = await scratch.insertProject('bob', 'Bob');
  });

  afterAll(() => scratch.close());

  beforeEach(() =>
    scratch.db.write((manager) => manager.query('DELETE FROM "tasks"')),
  );

  async function queue(
    project: Project,
    createdAt = at(0),
    id = newId(),
    total = 1,
  ) {
    return scratch.changing(project.id, (transaction) =>
      tasks.insert(
        transaction,
        newLogoTask(project.id, {
          id,
          input: { style: 'flat' },
          createdAt,
          total,
        }),
      ),
    );
  }

  const move = (
    project: Project,
    taskId: string,
    expected: Expected,
    change: TaskChange,
  ) =>
    scratch.changing(project.id, (transaction) =>
      tasks.move(transaction, taskId, expected, change),
    );

  /**
   * A move in a transaction that does not move the project's version: it
   * may only be refused (a move that went through records an event, and
   * the change log then refuses the commit).
   */
  const refusedMove = (
    taskId: string,
    expected: Expected,
    change: TaskChange,
  ) =>
    scratch.db.transaction((transaction) =>
      tasks.move(transaction, taskId, expected, change),
    );

  /** A worker's claim of a queued task for its attempt; it must go through. */
  const start = (project: Project, taskId: string, attempts = 1) =>
    expect(
      move(
        project,
        taskId,
        { statuses: ['QUEUED'] },
        { status: 'RUNNING', attempts, started: true },
      ),
    ).resolves.toBe(true);

  it('a new task is QUEUED with no attempt, reads back as inserted, and records its event', async () => {
    const { latest } = await scratch.changeLog.bounds();
    const inserted = await queue(ann);
    expect(inserted).toMatchObject({
      status: 'QUEUED',
      attempts: 0,
      assetIds: [],
      progress: { done: 0, total: 1 },
      error: null,
      startedAt: null,
      finishedAt: null,
    });
    await expect(tasks.find(ann.id, inserted.id, undefined)).resolves.toEqual(
      inserted,
    );
    const events = await scratch.changeLog.after(latest, {}, 10);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'task.updated',
        projectId: ann.id,
        data: expect.objectContaining({
          taskId: inserted.id,
          status: 'QUEUED',
          attempts: 0,
          progress: { done: 0, total: 1 },
          // The task as its answer shows it.
          task: inserted,
        }) as unknown,
      }),
    ]);
  });

  it('a kept result moves the progress on only from the progress expected: each index is kept once', async () => {
    const task = await queue(ann, at(0), newId(), 3);
    await move(
      ann,
      task.id,
      { statuses: ['QUEUED'] },
      {
        status: 'RUNNING',
        attempts: 1,
      },
    );
    const held = { statuses: ['RUNNING'] as TaskStatus[], attempts: 1 };
    const { latest } = await scratch.changeLog.bounds();
    await expect(
      move(
        ann,
        task.id,
        { ...held, progress: { done: 0, total: 3 } },
        {
          status: 'RUNNING',
          progress: { done: 1, total: 3 },
          assetIds: ['asset-1'],
        },
      ),
    ).resolves.toBe(true);
    // The same index again (a second worker, a replayed keep): refused.
    await expect(
      refusedMove(
        task.id,
        { ...held, progress: { done: 0, total: 3 } },
        {
          status: 'RUNNING',
          progress: { done: 1, total: 3 },
          assetIds: ['asset-2'],
        },
      ),
    ).resolves.toBe(false);
    await expect(tasks.find(ann.id, task.id, undefined)).resolves.toMatchObject(
      {
        progress: { done: 1, total: 3 },
        assetIds: ['asset-1'],
      },
    );
    const events = await scratch.changeLog.after(latest, {}, 10);
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({
        status: 'RUNNING',
        progress: { done: 1, total: 3 },
      }),
    ]);
  });

  it("finds a task only in its own project, and only in its owner's when an owner is given", async () => {
    const task = await queue(ann);
    await expect(tasks.find(ann.id, task.id, 'ann')).resolves.toBeDefined();
    await expect(tasks.find(ann.id, task.id, 'bob')).resolves.toBeUndefined();
    await expect(
      tasks.find(annOther.id, task.id, undefined),
    ).resolves.toBeUndefined();
  });

  it('counts the unfinished tasks of the project and of all its owner’s projects, no one else’s', async () => {
    const done = await queue(ann);
    await move(ann, done.id, { statuses: ['QUEUED'] }, { status: 'SUCCEEDED' });
    const running = await queue(ann);
    await move(
      ann,
      running.id,
      { statuses: ['QUEUED'] },
      { status: 'RUNNING' },
    );
    await queue(ann);
    await queue(annOther);
    await queue(bob);
    const counts = await scratch.db.transaction((transaction) =>
      tasks.unfinishedCounts(transaction, ann.id, 'ann'),
    );
    expect(counts).toEqual({ project: 2, user: 3 });
  });

  it('a move is a compare-and-set: a task not in the expected status, attempt or project is left as it is', async () => {
    const task = await queue(ann);
    const refused: Array<[Expected, TaskChange]> = [
      [{ statuses: ['RUNNING'] }, { status: 'FAILED' }],
      [{ statuses: ['QUEUED'], attempts: 1 }, { status: 'RUNNING' }],
      [
        { statuses: ['QUEUED'], projectId: annOther.id },
        { status: 'CANCELLED' },
      ],
    ];
    for (const [expected, change] of refused) {
      await expect(refusedMove(task.id, expected, change)).resolves.toBe(false);
    }
    await expect(tasks.statusOf(task.id)).resolves.toEqual({
      status: 'QUEUED',
      attempts: 0,
    });
    await expect(
      move(
        ann,
        task.id,
        { statuses: ['QUEUED', 'RUNNING'], attempts: 0, projectId: ann.id },
        { status: 'RUNNING', attempts: 1 },
      ),
    ).resolves.toBe(true);
    await expect(tasks.statusOf(task.id)).resolves.toEqual({
      status: 'RUNNING',
      attempts: 1,
    });
  });

  it('a move sets startedAt once, finishedAt, the error and the assets it names', async () => {
    const task = await queue(ann);
    await start(ann, task.id);
    const first = await tasks.find(ann.id, task.id, undefined);
    expect(first?.startedAt).not.toBeNull();
    await move(
      ann,
      task.id,
      { statuses: ['RUNNING'] },
      { status: 'QUEUED', error: { code: 'timeout', message: 'Too slow' } },
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    await start(ann, task.id, 2);
    await move(
      ann,
      task.id,
      { statuses: ['RUNNING'] },
      { status: 'SUCCEEDED', finished: true, error: null, assetIds: ['a1'] },
    );
    const last = await tasks.find(ann.id, task.id, undefined);
    expect(last).toMatchObject({
      status: 'SUCCEEDED',
      attempts: 2,
      startedAt: first?.startedAt,
      error: null,
      assetIds: ['a1'],
    });
    expect(last?.finishedAt).not.toBeNull();
  });

  it('every move records the task as its answer shows it after the move', async () => {
    const task = await queue(ann);
    const { latest } = await scratch.changeLog.bounds();
    await start(ann, task.id);
    await move(
      ann,
      task.id,
      { statuses: ['RUNNING'] },
      {
        status: 'FAILED',
        finished: true,
        error: { code: 'refused', message: 'No' },
      },
    );
    const events = await scratch.changeLog.after(latest, {}, 10);
    const sent = events.map((event) => (event.data as { task: TaskDto }).task);
    expect(sent.map((moved) => moved.status)).toEqual(['RUNNING', 'FAILED']);
    expect(sent[1]).toEqual(await tasks.find(ann.id, task.id, undefined));
    expect(events[1].data).toMatchObject({ status: 'FAILED', attempts: 1 });
  });

  it('a page is newest first, ties by id, and a cursor continues after its task', async () => {
    const ids = [newId(), newId(), newId()].sort();
    const oldest = await queue(ann, at(0));
    const tied = [
      await queue(ann, at(10), ids[0]),
      await queue(ann, at(10), ids[1]),
    ];
    const newest = await queue(ann, at(20));
    await queue(annOther, at(30));
    const first = await tasks.page(ann.id, 2, undefined);
    expect(first.map((task) => task.id)).toEqual([newest.id, tied[1].id]);
    const rest = await tasks.page(ann.id, 10, {
      createdAt: at(10),
      id: tied[1].id,
    });
    expect(rest.map((task) => task.id)).toEqual([tied[0].id, oldest.id]);
  });

  it('a claimable task comes with its project’s name and owner; a missing one is undefined', async () => {
    const task = await queue(bob);
    const claimed = await scratch.db.transaction((transaction) =>
      tasks.claimable(transaction, task.id),
    );
    expect(claimed?.project).toEqual({
      name: 'Bob',
      description: null,
      userId: 'bob',
    });
    expect(claimed?.task.id).toBe(task.id);
    await expect(
      scratch.db.transaction((transaction) =>
        tasks.claimable(transaction, newId()),
      ),
    ).resolves.toBeUndefined();
    await expect(tasks.statusOf(newId())).resolves.toBeUndefined();
  });

  it("places a task with the project's agent and section of its kind", async () => {
    const place = await scratch.db.transaction((transaction) =>
      tasks.placeOf(transaction, ann.id, 'DESIGN', 'LOGO'),
    );
    expect(place).toEqual({
      agentId: ann.agents.find((agent) => agent.type === 'DESIGN')?.id,
      sectionId: ann.sections.find((section) => section.type === 'LOGO')?.id,
    });
  });

  it('reads the chosen asset of a section when it is of the kind asked, in the transaction', async () => {
    const code = ann.sections.find((section) => section.type === 'CODE')!.id;
    const chosen = (kind: string) =>
      scratch.db.transaction((transaction) =>
        tasks.chosenAssetOfKind(transaction, ann.id, 'CODE', kind),
      );
    await expect(chosen('landing-page')).resolves.toBeUndefined();
    const pageId = newId();
    // Rows written directly: no project route wrote them.
    await scratch.db.write(async (manager) => {
      const sql = sqlFor(manager);
      await sql.changes(
        'INSERT INTO "assets" ("id", "projectId", "sectionId", "kind", "contentType", "byteSize", "sha256", "prompt", "model", "createdAt", "fileName") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
        [
          pageId,
          ann.id,
          code,
          'landing-page',
          'text/html',
          5,
          'a'.repeat(64),
          'a page',
          'code-model',
          isoTimestamp(at(0)),
          'page.html',
        ],
      );
      await sql.changes(
        'UPDATE "sections" SET "selectedAssetId" = $1 WHERE "id" = $2',
        [pageId, code],
      );
    });
    await expect(chosen('landing-page')).resolves.toBe(pageId);
    await expect(chosen('wireframe')).resolves.toBeUndefined();
    await expect(
      scratch.db.transaction((transaction) =>
        tasks.chosenAssetOfKind(
          transaction,
          annOther.id,
          'CODE',
          'landing-page',
        ),
      ),
    ).resolves.toBeUndefined();
  });
});
