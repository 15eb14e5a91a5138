import {
  logoAssetRecord,
  newLogoTask,
  openScratchSqlite,
  type ScratchSqlite,
} from '../../test/support/scratch-sqlite';
import { AssetsRepository } from '../assets/assets.repository';
import { newId } from '../common/ids';
import { managerOf, type Transaction } from '../database/database.service';
import { sqlFor } from '../database/sql';
import type { Project } from '../projects/entities/project.entity';
import type { TaskStatus } from '../tasks/dto/task.dto';
import { TasksRepository, type TaskChange } from '../tasks/tasks.repository';
import { WorkspaceStatuses } from './workspace-statuses.repository';

describe('WorkspaceStatuses (SQLite)', () => {
  let scratch: ScratchSqlite;
  let statuses: WorkspaceStatuses;
  let assets: AssetsRepository;
  let tasks: TasksRepository;
  let project: Project;
  let logoSection: string;
  let designer: string;

  beforeEach(async () => {
    scratch = await openScratchSqlite();
    statuses = new WorkspaceStatuses(scratch.scope, scratch.changeLog);
    assets = new AssetsRepository(scratch.db, scratch.changeLog);
    tasks = new TasksRepository(scratch.db, scratch.changeLog);
    project = await scratch.insertProject('ann', 'Ann');
    logoSection = project.sections.find((s) => s.type === 'LOGO')!.id;
    designer = project.agents.find((a) => a.type === 'DESIGN')!.id;
  });

  afterEach(() => scratch.close());

  /** Work and a refresh in one change of the project; what refresh said. */
  const changing = (work: (transaction: Transaction) => Promise<unknown>) =>
    scratch.changing(project.id, async (transaction) => {
      await work(transaction);
      return statuses.refresh(transaction, project.id);
    });

  /** Moves the task on from `from` in a change of the project. */
  const moveTask = (taskId: string, from: TaskStatus, change: TaskChange) =>
    changing((transaction) =>
      tasks.move(transaction, taskId, { statuses: [from] }, change),
    );

  const statusOf = async () =>
    scratch.db.read(async (manager) => {
      const [section] = await sqlFor(manager).rows<{ status: string }>(
        'SELECT "status" FROM "sections" WHERE "id" = $1',
        [logoSection],
      );
      const [agent] = await sqlFor(manager).rows<{ status: string }>(
        'SELECT "status" FROM "agents" WHERE "id" = $1',
        [designer],
      );
      return { section: section.status, agent: agent.status };
    });

  const keepAsset = (transaction: Transaction) => {
    const record = logoAssetRecord(project);
    return assets.insert(transaction, record).then(() => record.id);
  };

  it('a section with nothing is PENDING; with a result, REVIEW; with a chosen one, DONE', async () => {
    await expect(statusOf()).resolves.toEqual({
      section: 'PENDING',
      agent: 'IDLE',
    });
    let assetId = '';
    await changing(async (transaction) => {
      assetId = await keepAsset(transaction);
    });
    await expect(statusOf()).resolves.toMatchObject({ section: 'REVIEW' });
    await changing((transaction) =>
      sqlFor(managerOf(transaction)).changes(
        'UPDATE "sections" SET "selectedAssetId" = $1 WHERE "id" = $2',
        [assetId, logoSection],
      ),
    );
    await expect(statusOf()).resolves.toMatchObject({ section: 'DONE' });
  });

  it('a running task puts its section IN_PROGRESS, ahead of any result, and its agent WORKING', async () => {
    const taskId = newId();
    await changing(async (transaction) => {
      await keepAsset(transaction);
      await tasks.insert(
        transaction,
        newLogoTask(project.id, {
          id: taskId,
          agentId: designer,
          sectionId: logoSection,
        }),
      );
    });
    // Queued only: not yet running.
    await expect(statusOf()).resolves.toEqual({
      section: 'REVIEW',
      agent: 'IDLE',
    });
    await moveTask(taskId, 'QUEUED', { status: 'RUNNING' });
    await expect(statusOf()).resolves.toEqual({
      section: 'IN_PROGRESS',
      agent: 'WORKING',
    });
    await moveTask(taskId, 'RUNNING', { status: 'SUCCEEDED', finished: true });
    await expect(statusOf()).resolves.toEqual({
      section: 'REVIEW',
      agent: 'IDLE',
    });
  });

  it('says whether anything moved, and records an event for each section and agent that did', async () => {
    await expect(
      scratch.db.transaction((transaction) =>
        statuses.refresh(transaction, project.id),
      ),
    ).resolves.toBe(false);
    const { latest } = await scratch.changeLog.bounds();
    await expect(changing(keepAsset)).resolves.toBe(true);
    const events = await scratch.changeLog.after(latest, {}, 20);
    expect(events.map((event) => event.type).sort()).toEqual([
      'asset.created',
      'section.updated',
    ]);
    expect(
      events.find((event) => event.type === 'section.updated')?.data,
    ).toMatchObject({ sectionId: logoSection, status: 'REVIEW' });
    // Each section that moved, as the project's answer shows it.
    const moved = events.find((event) => event.type === 'section.updated');
    const section = (moved?.data as { section: Record<string, unknown> })
      .section;
    expect(section).toMatchObject({
      id: logoSection,
      projectId: project.id,
      type: 'LOGO',
      status: 'REVIEW',
      selectedAssetId: null,
    });
    expect(section.updatedAt).toMatch(/Z$/);
    expect(section.createdAt).toMatch(/Z$/);
  });
});
