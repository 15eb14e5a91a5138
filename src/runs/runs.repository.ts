import { Injectable } from '@nestjs/common';
import { ChangeLog } from '../change-log/change-log.repository';
import {
  Database,
  managerOf,
  type Transaction,
} from '../database/database.service';
import { isoTimestamp, sqlFor, type Sql } from '../database/sql';
import {
  joinProject,
  ownedBy,
  projectOwnedBy,
} from '../project-scope/project-sql';
import type { TaskCursor } from '../tasks/task-cursor';
import type { RunDto, RunErrorDto, RunStepDto } from './dto/run.dto';
import {
  OPEN_RUN_STATUSES,
  ACTIVE_STEP_STATUSES,
  type RunStatus,
  type RunStepStatus,
  type RunStepType,
} from './run-graph';
import type { RunQuote } from './run-quote';

/**
 * The only code that reads and writes runs and their steps, in
 * hand-written SQL, the same on SQLite and PostgreSQL
 * (sql/<dialect>/runs.repository.sql). Every status move is a
 * compare-and-set naming the status it expects, so two processes
 * advancing one run cannot both move a step (or queue its task twice):
 * the second finds the row moved and its transaction is rolled back.
 */

/** The advisory-lock namespace of a user's run count (with hashtext(userId)). */
const USER_RUNS_LOCK = 7_344_017;

const listOf = (values: readonly string[]) =>
  values.map((value) => `'${value}'`).join(', ');

const OPEN = listOf(OPEN_RUN_STATUSES);
const ACTIVE = listOf(ACTIVE_STEP_STATUSES);

const RUN_COLUMNS =
  '"r"."id", "r"."projectId", "r"."status", "r"."autoChoose", "r"."input", "r"."quote", "r"."siteUrl", "r"."error", "r"."createdAt", "r"."updatedAt"';
const STEP_COLUMNS =
  '"s"."runId", "s"."position", "s"."type", "s"."attempt", "s"."taskId", "s"."status", "s"."detail"';

/** What a step keeps of its own besides its status. */
export interface StepDetail {
  /** The chosen result of each section its task was made from, when queued. */
  basis?: Record<string, string | null>;
  /** A site check's error count (of its report), once read. */
  errors?: number;
  /** The report a site check kept. */
  reportId?: string;
  /** A site check whose next move (fix, publish or stop) was made. */
  decided?: boolean;
  /** A fix's landing page: the report it fixes. */
  fixReportId?: string;
  /** Why its task could not be created. */
  refused?: { code: string; message: string };
}

/** A run's row, as the service reads it. */
export interface StoredRun {
  id: string;
  projectId: string;
  status: RunStatus;
  autoChoose: boolean;
  input: Partial<Record<RunStepType, Record<string, unknown>>>;
  quote: RunQuote;
  siteUrl: string | null;
  error: RunErrorDto | null;
  createdAt: string;
  updatedAt: string;
}

/** A step's row, with its task's state when it has one. */
export interface StoredStep {
  position: number;
  type: RunStepType;
  attempt: number;
  taskId: string | null;
  status: RunStepStatus;
  detail: StepDetail;
  task?: {
    status: string;
    assetIds: string[];
    error: { code: string; message: string } | null;
  };
}

/** Everything one advance of a run reads. */
export interface RunState {
  run: StoredRun;
  steps: StoredStep[];
  /** The chosen result of each of the project's sections, by section type. */
  choices: Record<string, string | null>;
  /** Each section's id, by section type. */
  sectionIds: Record<string, string>;
}

interface RunRow {
  id: string;
  projectId: string;
  status: RunStatus;
  autoChoose: number | boolean;
  input: string;
  quote: string;
  siteUrl: string | null;
  error: string | null;
  createdAt: unknown;
  updatedAt: unknown;
}

interface StepRow {
  runId: string;
  position: number | string;
  type: RunStepType;
  attempt: number | string;
  taskId: string | null;
  status: RunStepStatus;
  detail: string;
  taskStatus?: string | null;
  taskAssetIds?: string | null;
  taskError?: string | null;
}

const runFromRow = (row: RunRow): StoredRun => ({
  id: row.id,
  projectId: row.projectId,
  status: row.status,
  autoChoose: Boolean(Number(row.autoChoose)),
  input: JSON.parse(row.input) as StoredRun['input'],
  quote: JSON.parse(row.quote) as RunQuote,
  siteUrl: row.siteUrl,
  error: row.error === null ? null : (JSON.parse(row.error) as RunErrorDto),
  createdAt: isoTimestamp(row.createdAt),
  updatedAt: isoTimestamp(row.updatedAt),
});

const stepFromRow = (row: StepRow): StoredStep => ({
  position: Number(row.position),
  type: row.type,
  attempt: Number(row.attempt),
  taskId: row.taskId,
  status: row.status,
  detail: JSON.parse(row.detail) as StepDetail,
  ...(row.taskStatus
    ? {
        task: {
          status: row.taskStatus,
          assetIds: JSON.parse(row.taskAssetIds ?? '[]') as string[],
          error:
            row.taskError === null || row.taskError === undefined
              ? null
              : (JSON.parse(row.taskError) as {
                  code: string;
                  message: string;
                }),
        },
      }
    : {}),
});

const stepDto = (step: StoredStep): RunStepDto => ({
  type: step.type,
  taskId: step.taskId,
  status: step.status,
  ...(step.attempt > 1 ? { attempt: step.attempt } : {}),
});

/** A run as its answer shows it. */
export const runDto = (run: StoredRun, steps: StoredStep[]): RunDto => ({
  id: run.id,
  projectId: run.projectId,
  status: run.status,
  autoChoose: run.autoChoose,
  steps: steps.map(stepDto),
  quote: run.quote,
  ...(run.siteUrl === null ? {} : { siteUrl: run.siteUrl }),
  ...(run.error === null ? {} : { error: run.error }),
  createdAt: run.createdAt,
  updatedAt: run.updatedAt,
});

/** A new run's row and its steps' types, in order. */
export interface NewRun {
  id: string;
  projectId: string;
  autoChoose: boolean;
  input: StoredRun['input'];
  quote: RunQuote;
  steps: RunStepType[];
  createdAt: Date;
}

/** The columns one move of a run sets. */
export interface RunChange {
  status: RunStatus;
  error?: RunErrorDto;
  siteUrl?: string;
}

/** The columns one move of a step sets. */
export interface StepChange {
  status: RunStepStatus;
  taskId?: string;
  detail?: StepDetail;
}

@Injectable()
export class RunsRepository {
  constructor(
    private readonly db: Database,
    private readonly changeLog: ChangeLog,
  ) {}

  /**
   * The owner's runs not finished yet, counted under the owner's lock
   * until the transaction ends (as a task's count is), so that two
   * creates cannot both see room under the cap.
   */
  async openCountOfUser(
    transaction: Transaction,
    userId: string,
  ): Promise<number> {
    const manager = managerOf(transaction);
    const sql = sqlFor(manager);
    if (manager.connection.options.type === 'postgres') {
      await sql.rows('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
        USER_RUNS_LOCK,
        userId,
      ]);
    }
    const [row] = await sql.rows<{ count: number | string }>(
      `SELECT COUNT(*) AS "count" FROM "runs" "r" ${joinProject('r')} WHERE ${ownedBy(1, 'p')} AND "r"."status" IN (${OPEN})`,
      [userId],
    );
    return Number(row.count);
  }

  async insert(transaction: Transaction, run: NewRun): Promise<RunDto> {
    const sql = sqlFor(managerOf(transaction));
    const at = sql.timestamp(run.createdAt);
    await sql.changes(
      `INSERT INTO "runs" ("id", "projectId", "status", "autoChoose", "input", "quote", "siteUrl", "error", "createdAt", "updatedAt") VALUES ($1, $2, 'QUEUED', $3, $4, $5, NULL, NULL, $6, $6)`,
      [
        run.id,
        run.projectId,
        run.autoChoose ? 1 : 0,
        JSON.stringify(run.input),
        JSON.stringify(run.quote),
        at,
      ],
    );
    for (const [position, type] of run.steps.entries()) {
      await this.insertStep(transaction, run.id, {
        position,
        type,
        attempt: 1,
      });
    }
    return this.announce(transaction, run.id);
  }

  /** A new PENDING step (a fix's attempt) at `position`. */
  async insertStep(
    transaction: Transaction,
    runId: string,
    step: {
      position: number;
      type: RunStepType;
      attempt: number;
      detail?: StepDetail;
    },
  ): Promise<void> {
    const sql = sqlFor(managerOf(transaction));
    await sql.changes(
      `INSERT INTO "run_steps" ("runId", "position", "type", "attempt", "taskId", "status", "detail", "updatedAt") VALUES ($1, $2, $3, $4, NULL, 'PENDING', $5, $6)`,
      [
        runId,
        step.position,
        step.type,
        step.attempt,
        JSON.stringify(step.detail ?? {}),
        sql.timestamp(new Date()),
      ],
    );
  }

  /** One run of a project (of `owner`, when given). */
  async find(
    projectId: string,
    runId: string,
    owner: string | undefined,
  ): Promise<RunDto | undefined> {
    return this.db.read(async (manager) => {
      const sql = sqlFor(manager);
      const [row] =
        owner === undefined
          ? await sql.rows<RunRow>(
              `SELECT ${RUN_COLUMNS} FROM "runs" "r" WHERE "r"."id" = $1 AND "r"."projectId" = $2`,
              [runId, projectId],
            )
          : await sql.rows<RunRow>(
              `SELECT ${RUN_COLUMNS} FROM "runs" "r" WHERE "r"."id" = $1 AND "r"."projectId" = $2 AND ${projectOwnedBy('"r"."projectId"', 3)}`,
              [runId, projectId, owner],
            );
      if (!row) return undefined;
      return runDto(runFromRow(row), await this.stepRows(sql, runId));
    });
  }

  /** A page of a project's runs, newest first, after `cursor`. */
  async page(
    projectId: string,
    limit: number,
    cursor: TaskCursor | undefined,
  ): Promise<RunDto[]> {
    return this.db.read(async (manager) => {
      const sql = sqlFor(manager);
      const rows = cursor
        ? await sql.rows<RunRow>(
            `SELECT ${RUN_COLUMNS} FROM "runs" "r" WHERE "r"."projectId" = $1 AND ("r"."createdAt" < $3 OR ("r"."createdAt" = $3 AND "r"."id" < $4)) ORDER BY "r"."createdAt" DESC, "r"."id" DESC LIMIT $2`,
            [projectId, limit, sql.timestamp(cursor.createdAt), cursor.id],
          )
        : await sql.rows<RunRow>(
            `SELECT ${RUN_COLUMNS} FROM "runs" "r" WHERE "r"."projectId" = $1 ORDER BY "r"."createdAt" DESC, "r"."id" DESC LIMIT $2`,
            [projectId, limit],
          );
      const runs: RunDto[] = [];
      // At most a page's rows (TASK_PAGE_MAX), each with its few steps.
      for (const row of rows) {
        runs.push(runDto(runFromRow(row), await this.stepRows(sql, row.id)));
      }
      return runs;
    });
  }

  /** The run, its steps with their tasks, and its project's choices. */
  async state(runId: string): Promise<RunState | undefined> {
    return this.db.read((manager) => this.stateWith(sqlFor(manager), runId));
  }

  /** The same, in a transaction. */
  async stateIn(
    transaction: Transaction,
    runId: string,
  ): Promise<RunState | undefined> {
    return this.stateWith(sqlFor(managerOf(transaction)), runId);
  }

  /** The run a task does a step of, if any. */
  async runOfTask(taskId: string): Promise<string | undefined> {
    const [row] = await this.db.read((manager) =>
      sqlFor(manager).rows<{ runId: string }>(
        'SELECT "runId" FROM "run_steps" WHERE "taskId" = $1',
        [taskId],
      ),
    );
    return row?.runId;
  }

  /** The project's runs still open, oldest first (at most `limit`). */
  async openRunsOf(projectId: string, limit: number): Promise<string[]> {
    const rows = await this.db.read((manager) =>
      sqlFor(manager).rows<{ id: string }>(
        `SELECT "id" FROM "runs" WHERE "projectId" = $1 AND "status" IN (${OPEN}) ORDER BY "createdAt", "id" LIMIT $2`,
        [projectId, limit],
      ),
    );
    return rows.map((row) => row.id);
  }

  /**
   * Runs the sweep advances: open ones, and finished ones whose steps'
   * tasks are still queued or running (a failed run lets them finish).
   */
  async sweepable(limit: number): Promise<string[]> {
    const rows = await this.db.read((manager) =>
      sqlFor(manager).rows<{ id: string }>(
        `SELECT "id" FROM "runs" WHERE "status" IN (${OPEN}) UNION SELECT DISTINCT "runId" AS "id" FROM "run_steps" WHERE "status" IN (${ACTIVE}) LIMIT $1`,
        [limit],
      ),
    );
    return rows.map((row) => row.id);
  }

  /** Moves a step on from `from`; false when it had moved already. */
  async moveStep(
    transaction: Transaction,
    runId: string,
    position: number,
    from: readonly RunStepStatus[],
    change: StepChange,
  ): Promise<boolean> {
    const sql = sqlFor(managerOf(transaction));
    const sets = ['"status" = $1', '"updatedAt" = $2'];
    const params: unknown[] = [change.status, sql.timestamp(new Date())];
    if (change.taskId !== undefined) {
      params.push(change.taskId);
      sets.push(`"taskId" = $${params.length}`);
    }
    if (change.detail !== undefined) {
      params.push(JSON.stringify(change.detail));
      sets.push(`"detail" = $${params.length}`);
    }
    params.push(runId, position);
    const changed = await sql.changes(
      `UPDATE "run_steps" SET ${sets.join(', ')} WHERE "runId" = $${params.length - 1} AND "position" = $${params.length} AND "status" IN (${listOf(from)})`,
      params,
    );
    return changed === 1;
  }

  /** Moves the run on from `from`; false when it had moved already. */
  async moveRun(
    transaction: Transaction,
    runId: string,
    from: readonly RunStatus[],
    change: RunChange,
  ): Promise<boolean> {
    const sql = sqlFor(managerOf(transaction));
    const sets = ['"status" = $1', '"updatedAt" = $2'];
    const params: unknown[] = [change.status, sql.timestamp(new Date())];
    if (change.error !== undefined) {
      params.push(JSON.stringify(change.error));
      sets.push(`"error" = $${params.length}`);
    }
    if (change.siteUrl !== undefined) {
      params.push(change.siteUrl);
      sets.push(`"siteUrl" = $${params.length}`);
    }
    params.push(runId);
    const changed = await sql.changes(
      `UPDATE "runs" SET ${sets.join(', ')} WHERE "id" = $${params.length} AND "status" IN (${listOf(from)})`,
      params,
    );
    return changed === 1;
  }

  /** The chosen result of each of the project's sections, in a transaction. */
  async choicesIn(
    transaction: Transaction,
    projectId: string,
  ): Promise<Record<string, string | null>> {
    return this.choicesWith(sqlFor(managerOf(transaction)), projectId);
  }

  /**
   * Records the run as it now stands (a `run.updated` event), to commit
   * with the moves of this transaction; answers the run.
   */
  async announce(transaction: Transaction, runId: string): Promise<RunDto> {
    const sql = sqlFor(managerOf(transaction));
    const [row] = await sql.rows<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM "runs" "r" WHERE "r"."id" = $1`,
      [runId],
    );
    const run = runDto(runFromRow(row), await this.stepRows(sql, runId));
    this.changeLog.record(transaction, run.projectId, {
      type: 'run.updated',
      key: run.id,
      data: {
        runId: run.id,
        status: run.status,
        steps: run.steps,
        run,
      },
    });
    return run;
  }

  private async stateWith(
    sql: Sql,
    runId: string,
  ): Promise<RunState | undefined> {
    const [row] = await sql.rows<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM "runs" "r" WHERE "r"."id" = $1`,
      [runId],
    );
    if (!row) return undefined;
    const steps = await sql.rows<StepRow>(
      `SELECT ${STEP_COLUMNS}, "t"."status" AS "taskStatus", "t"."assetIds" AS "taskAssetIds", "t"."error" AS "taskError" FROM "run_steps" "s" LEFT JOIN "tasks" "t" ON "t"."id" = "s"."taskId" WHERE "s"."runId" = $1 ORDER BY "s"."position"`,
      [runId],
    );
    const sections = await this.sectionsWith(sql, row.projectId);
    return {
      run: runFromRow(row),
      steps: steps.map(stepFromRow),
      choices: Object.fromEntries(
        sections.map((section) => [section.type, section.selectedAssetId]),
      ),
      sectionIds: Object.fromEntries(
        sections.map((section) => [section.type, section.id]),
      ),
    };
  }

  private async stepRows(sql: Sql, runId: string): Promise<StoredStep[]> {
    const rows = await sql.rows<StepRow>(
      `SELECT ${STEP_COLUMNS} FROM "run_steps" "s" WHERE "s"."runId" = $1 ORDER BY "s"."position"`,
      [runId],
    );
    return rows.map(stepFromRow);
  }

  private async choicesWith(
    sql: Sql,
    projectId: string,
  ): Promise<Record<string, string | null>> {
    const sections = await this.sectionsWith(sql, projectId);
    return Object.fromEntries(
      sections.map((section) => [section.type, section.selectedAssetId]),
    );
  }

  /** The first section of each type, as a task's placeOf takes it. */
  private async sectionsWith(
    sql: Sql,
    projectId: string,
  ): Promise<
    Array<{ id: string; type: string; selectedAssetId: string | null }>
  > {
    const rows = await sql.rows<{
      id: string;
      type: string;
      selectedAssetId: string | null;
    }>(
      'SELECT "id", "type", "selectedAssetId" FROM "sections" WHERE "projectId" = $1 ORDER BY "position"',
      [projectId],
    );
    const seen = new Set<string>();
    return rows.filter((row) => !seen.has(row.type) && seen.add(row.type));
  }
}
