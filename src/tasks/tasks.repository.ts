import { ChangeLog } from '../change-log/change-log.repository';
import {
  joinProject,
  ownedBy,
  projectOwnedBy,
  PROJECT_SUMMARY_COLUMNS,
} from '../project-scope/project-sql';
import { Injectable } from '@nestjs/common';
import {
  Database,
  managerOf,
  type Transaction,
} from '../database/database.service';
import { isoTimestamp, sqlFor } from '../database/sql';
import { constant, rowInsert, type ColumnValue } from '../database/row-insert';
import {
  TASK_FIELDS,
  type TaskColumn,
  type TaskDto,
  type TaskErrorDto,
  type TaskProgressDto,
  type TaskStatus,
  type TaskType,
} from './dto/task.dto';
import type { TaskCursor } from './task-cursor';

/**
 * The only code that reads and writes tasks (the embedded engine's
 * schedule columns aside: engine/), in hand-written SQL, the same
 * statements on SQLite and PostgreSQL (sql/<dialect>/tasks.repository.sql).
 * A task's status only moves by compare-and-set: every UPDATE names the
 * status (and attempt) it expects, so a cancel, a second worker or a late
 * answer can never overwrite a newer state.
 */

const SELECT = `SELECT ${TASK_FIELDS.map((name) => `"t"."${name}"`).join(', ')} FROM "tasks" "t"`;

/** A changed task's fields, as an UPDATE returns them. */
const RETURNING = TASK_FIELDS.map((name) => `"${name}"`).join(', ');

/** Only a task of a project of user $3. */
const OWNED = projectOwnedBy('"t"."projectId"', 3);

/** The advisory-lock namespace of a user's task count (with hashtext(userId)). */
const USER_TASKS_LOCK = 7_344_001;

/** A task with its project's name, description and owner. */
const CLAIM_SELECT = `SELECT ${TASK_FIELDS.map((name) => `"t"."${name}"`).join(', ')}, ${PROJECT_SUMMARY_COLUMNS} FROM "tasks" "t" ${joinProject('t')}`;

interface TaskRow extends Omit<
  TaskDto,
  'input' | 'assetIds' | 'progress' | 'error'
> {
  input: string;
  assetIds: string;
  progress: string;
  error: string | null;
}

/**
 * A task's progress as stored: always this text for the same numbers
 * (keys in this order, no spaces), so that a keep's compare-and-set can
 * compare it (the migration writes the same text).
 */
export const progressText = (progress: TaskProgressDto): string =>
  `{"done":${progress.done},"total":${progress.total}}`;

const fromRow = (row: TaskRow): TaskDto => ({
  ...row,
  input: JSON.parse(row.input) as Record<string, unknown>,
  assetIds: JSON.parse(row.assetIds) as string[],
  progress: JSON.parse(row.progress) as TaskProgressDto,
  error: row.error === null ? null : (JSON.parse(row.error) as TaskErrorDto),
  attempts: Number(row.attempts),
  createdAt: isoTimestamp(row.createdAt),
  startedAt: row.startedAt === null ? null : isoTimestamp(row.startedAt),
  finishedAt: row.finishedAt === null ? null : isoTimestamp(row.finishedAt),
});

/** A new task's row. */
export interface NewTask {
  id: string;
  projectId: string;
  type: TaskType;
  agentId: string | null;
  sectionId: string | null;
  input: Record<string, unknown>;
  createdAt: Date;
  /** How many of the owner's tasks are unfinished already (engine/task-schedule.repository.ts). */
  queuePlace: number;
  /** How many results it will keep (its progress starts at 0 of these). */
  total: number;
}

/**
 * Every column of a new task, in the order of the statement: a field of
 * NewTask, or the value every task starts with. Typed with every column
 * required, so a column added to the entity fails to compile here until
 * the INSERT sets it.
 */
const INSERT = rowInsert<keyof NewTask>('tasks', {
  id: 'id',
  projectId: 'projectId',
  type: 'type',
  agentId: 'agentId',
  sectionId: 'sectionId',
  status: constant("'QUEUED'"),
  input: 'input',
  assetIds: constant("'[]'"),
  error: constant('NULL'),
  attempts: constant('0'),
  createdAt: 'createdAt',
  startedAt: constant('NULL'),
  finishedAt: constant('NULL'),
  updatedAt: 'createdAt',
  runAfter: 'createdAt',
  leaseUntil: constant('NULL'),
  queuePlace: 'queuePlace',
  progress: 'total',
} satisfies { [K in TaskColumn]-?: ColumnValue<keyof NewTask> });

/** What a worker needs to run a task: the task and its project's text. */
export interface ClaimedTask {
  task: TaskDto;
  project: { name: string; description: string | null; userId: string };
}

@Injectable()
export class TasksRepository {
  constructor(
    private readonly db: Database,
    private readonly changeLog: ChangeLog,
  ) {}

  /** The id of the project's agent of `agentType` and section of `sectionType`. */
  async placeOf(
    transaction: Transaction,
    projectId: string,
    agentType: string,
    sectionType: string,
  ): Promise<{ agentId: string | null; sectionId: string | null }> {
    const sql = sqlFor(managerOf(transaction));
    const [agent] = await sql.rows<{ id: string }>(
      `SELECT "id" FROM "agents" WHERE "projectId" = $1 AND "type" = $2 ORDER BY "createdAt", "id" LIMIT 1`,
      [projectId, agentType],
    );
    const [section] = await sql.rows<{ id: string }>(
      `SELECT "id" FROM "sections" WHERE "projectId" = $1 AND "type" = $2 ORDER BY "position" LIMIT 1`,
      [projectId, sectionType],
    );
    return { agentId: agent?.id ?? null, sectionId: section?.id ?? null };
  }

  /**
   * Tasks not finished yet: of one project, and of all a user's projects.
   * Counted under the user's lock until the transaction ends, so that
   * creates racing on different projects of one user cannot all see room
   * under the cap (on SQLite every write transaction already runs alone).
   */
  async unfinishedCounts(
    transaction: Transaction,
    projectId: string,
    userId: string,
  ): Promise<{ project: number; user: number }> {
    const manager = managerOf(transaction);
    const sql = sqlFor(manager);
    if (manager.connection.options.type === 'postgres') {
      await sql.rows('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
        USER_TASKS_LOCK,
        userId,
      ]);
    }
    const [project] = await sql.rows<{ count: number | string }>(
      `SELECT COUNT(*) AS "count" FROM "tasks" WHERE "projectId" = $1 AND "status" IN ('QUEUED', 'RUNNING')`,
      [projectId],
    );
    const [user] = await sql.rows<{ count: number | string }>(
      `SELECT COUNT(*) AS "count" FROM "tasks" "t" ${joinProject('t')} WHERE ${ownedBy(1, 'p')} AND "t"."status" IN ('QUEUED', 'RUNNING')`,
      [userId],
    );
    return { project: Number(project.count), user: Number(user.count) };
  }

  async insert(transaction: Transaction, task: NewTask): Promise<TaskDto> {
    const sql = sqlFor(managerOf(transaction));
    const progress = { done: 0, total: task.total };
    await sql.changes(
      INSERT.text,
      INSERT.params({
        ...task,
        input: JSON.stringify(task.input),
        createdAt: sql.timestamp(task.createdAt),
        total: progressText(progress),
      }),
    );
    const created: TaskDto = {
      id: task.id,
      projectId: task.projectId,
      type: task.type,
      agentId: task.agentId,
      sectionId: task.sectionId,
      status: 'QUEUED',
      input: task.input,
      assetIds: [],
      progress,
      error: null,
      attempts: 0,
      createdAt: task.createdAt.toISOString(),
      startedAt: null,
      finishedAt: null,
    };
    this.changeLog.record(transaction, task.projectId, {
      type: 'task.updated',
      key: task.id,
      data: {
        taskId: task.id,
        type: task.type,
        status: 'QUEUED',
        attempts: 0,
        progress,
        task: created,
      },
    });
    return created;
  }

  /** One task of a project (of `owner`, when given). */
  async find(
    projectId: string,
    taskId: string,
    owner: string | undefined,
  ): Promise<TaskDto | undefined> {
    const [row] = await this.db.read((manager) =>
      owner === undefined
        ? sqlFor(manager).rows<TaskRow>(
            `${SELECT} WHERE "t"."id" = $1 AND "t"."projectId" = $2`,
            [taskId, projectId],
          )
        : sqlFor(manager).rows<TaskRow>(
            `${SELECT} WHERE "t"."id" = $1 AND "t"."projectId" = $2 AND ${OWNED}`,
            [taskId, projectId, owner],
          ),
    );
    return row ? fromRow(row) : undefined;
  }

  /** One task of a project, in a transaction. */
  async findIn(
    transaction: Transaction,
    projectId: string,
    taskId: string,
  ): Promise<TaskDto | undefined> {
    const [row] = await sqlFor(managerOf(transaction)).rows<TaskRow>(
      `${SELECT} WHERE "t"."id" = $1 AND "t"."projectId" = $2`,
      [taskId, projectId],
    );
    return row ? fromRow(row) : undefined;
  }

  /** A page of a project's tasks, newest first, after `cursor`. */
  async page(
    projectId: string,
    limit: number,
    cursor: TaskCursor | undefined,
  ): Promise<TaskDto[]> {
    const rows = await this.db.read((manager) => {
      const sql = sqlFor(manager);
      return cursor
        ? sql.rows<TaskRow>(
            `${SELECT} WHERE "t"."projectId" = $1 AND ("t"."createdAt" < $3 OR ("t"."createdAt" = $3 AND "t"."id" < $4)) ORDER BY "t"."createdAt" DESC, "t"."id" DESC LIMIT $2`,
            [projectId, limit, sql.timestamp(cursor.createdAt), cursor.id],
          )
        : sql.rows<TaskRow>(
            `${SELECT} WHERE "t"."projectId" = $1 ORDER BY "t"."createdAt" DESC, "t"."id" DESC LIMIT $2`,
            [projectId, limit],
          );
    });
    return rows.map(fromRow);
  }

  /** A task's status now (undefined once it, or its project, is gone). */
  async statusOf(
    taskId: string,
  ): Promise<{ status: TaskStatus; attempts: number } | undefined> {
    const [row] = await this.db.read((manager) =>
      sqlFor(manager).rows<{ status: TaskStatus; attempts: number | string }>(
        `SELECT "status", "attempts" FROM "tasks" WHERE "id" = $1`,
        [taskId],
      ),
    );
    return row && { status: row.status, attempts: Number(row.attempts) };
  }

  /** The task's row, for a worker about to run it. */
  async claimable(
    transaction: Transaction,
    taskId: string,
  ): Promise<ClaimedTask | undefined> {
    const sql = sqlFor(managerOf(transaction));
    const [row] = await sql.rows<
      TaskRow & {
        projectName: string;
        projectDescription: string | null;
        userId: string;
      }
    >(`${CLAIM_SELECT} WHERE "t"."id" = $1`, [taskId]);
    if (!row) return undefined;
    const { projectName, projectDescription, userId, ...task } = row;
    return {
      task: fromRow(task),
      project: { name: projectName, description: projectDescription, userId },
    };
  }

  /**
   * Moves a task from `from` (and its attempt count, and its progress) on;
   * false when it had moved already (cancelled, deleted, taken by another
   * attempt, or the result of that progress kept already).
   */
  async move(
    transaction: Transaction,
    taskId: string,
    expected: {
      statuses: readonly TaskStatus[];
      attempts?: number;
      projectId?: string;
      progress?: TaskProgressDto;
    },
    change: TaskChange,
  ): Promise<boolean> {
    const sql = sqlFor(managerOf(transaction));
    const now = sql.timestamp(new Date());
    const sets: string[] = ['"status" = $1', '"updatedAt" = $2'];
    const params: unknown[] = [change.status, now];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`"${column}" = $${params.length}`);
    };
    if (change.attempts !== undefined) set('attempts', change.attempts);
    if (change.started) sets.push(`"startedAt" = COALESCE("startedAt", $2)`);
    if (change.finished) sets.push(`"finishedAt" = $2`);
    if (change.error !== undefined) {
      set('error', change.error === null ? null : JSON.stringify(change.error));
    }
    if (change.assetIds) set('assetIds', JSON.stringify(change.assetIds));
    if (change.progress) set('progress', progressText(change.progress));
    params.push(taskId);
    let where = `"id" = $${params.length} AND "status" IN (${expected.statuses
      .map((status) => `'${status}'`)
      .join(', ')})`;
    if (expected.attempts !== undefined) {
      params.push(expected.attempts);
      where += ` AND "attempts" = $${params.length}`;
    }
    if (expected.projectId !== undefined) {
      params.push(expected.projectId);
      where += ` AND "projectId" = $${params.length}`;
    }
    if (expected.progress !== undefined) {
      params.push(progressText(expected.progress));
      where += ` AND "progress" = $${params.length}`;
    }
    const [row] = await sql.changedRows<TaskRow>(
      `UPDATE "tasks" SET ${sets.join(', ')} WHERE ${where} RETURNING ${RETURNING}`,
      params,
    );
    if (!row) return false;
    // The task as its answer shows it after the move: a page applies it as is.
    const moved = fromRow(row);
    this.changeLog.record(transaction, moved.projectId, {
      type: 'task.updated',
      key: taskId,
      data: {
        taskId,
        type: moved.type,
        status: moved.status,
        attempts: moved.attempts,
        progress: moved.progress,
        task: moved,
      },
    });
    return true;
  }

  /** The id of the project's newest asset of `kind`, if any. */
  async newestAssetOf(
    projectId: string,
    kind: string,
  ): Promise<string | undefined> {
    const [row] = await this.db.read((manager) =>
      sqlFor(manager).rows<{ id: string }>(
        `SELECT "id" FROM "assets" WHERE "projectId" = $1 AND "kind" = $2 ORDER BY "createdAt" DESC, "id" DESC LIMIT 1`,
        [projectId, kind],
      ),
    );
    return row?.id;
  }

  /** The asset chosen in the project's section of `sectionType`, if any. */
  async selectedAssetOf(
    projectId: string,
    sectionType: string,
  ): Promise<string | undefined> {
    const [row] = await this.db.read((manager) =>
      sqlFor(manager).rows<{ selectedAssetId: string | null }>(
        `SELECT "selectedAssetId" FROM "sections" WHERE "projectId" = $1 AND "type" = $2 ORDER BY "position" LIMIT 1`,
        [projectId, sectionType],
      ),
    );
    return row?.selectedAssetId ?? undefined;
  }

  /**
   * The asset chosen in the project's section of `sectionType` when it is
   * of `kind`, read in `transaction` (a task's defaults at creation).
   */
  async chosenAssetOfKind(
    transaction: Transaction,
    projectId: string,
    sectionType: string,
    kind: string,
  ): Promise<string | undefined> {
    const [row] = await sqlFor(managerOf(transaction)).rows<{ id: string }>(
      `SELECT "a"."id" FROM "sections" "s" JOIN "assets" "a" ON "a"."id" = "s"."selectedAssetId" AND "a"."projectId" = "s"."projectId" WHERE "s"."projectId" = $1 AND "s"."type" = $2 AND "a"."kind" = $3 ORDER BY "s"."position" LIMIT 1`,
      [projectId, sectionType, kind],
    );
    return row?.id;
  }
}

/** The columns one status move sets. */
export interface TaskChange {
  status: TaskStatus;
  attempts?: number;
  /** Sets startedAt, once. */
  started?: boolean;
  /** Sets finishedAt. */
  finished?: boolean;
  error?: TaskErrorDto | null;
  assetIds?: string[];
  progress?: TaskProgressDto;
}
