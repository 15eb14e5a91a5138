import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database.service';
import { sqlFor } from '../../database/sql';

/**
 * The embedded engine's side of the tasks table: when a queued task may
 * run (runAfter) and until when a running one's worker holds it
 * (leaseUntil). The task's status is the runner's (tasks.repository.ts).
 */
@Injectable()
export class TaskScheduleRepository {
  constructor(private readonly db: Database) {}

  /**
   * Leases one deliverable task until `leaseUntil`: a queued one whose
   * time has come, else a running one whose worker's lease ran out (it
   * died). Round robin by user, as pg-boss's priorities do: a task's
   * place (queuePlace) is its owner's backlog when it was queued (the
   * owner's tasks not finished by then), lowest first, oldest first among equals:
   * every user's first task comes before any user's second, so one
   * user's backlog never holds another user's first task for longer than
   * a worker needs to come free.
   */
  async take(now: Date, leaseUntil: Date): Promise<string | undefined> {
    return this.db.write(async (manager) => {
      const sql = sqlFor(manager);
      const at = sql.timestamp(now);
      let [row] = await sql.rows<{ id: string }>(
        `SELECT "id" FROM "tasks" WHERE "status" = 'QUEUED' AND "runAfter" <= $1 ORDER BY "queuePlace", "runAfter", "id" LIMIT 1`,
        [at],
      );
      row ??= (
        await sql.rows<{ id: string }>(
          `SELECT "id" FROM "tasks" WHERE "status" = 'RUNNING' AND "leaseUntil" < $1 ORDER BY "leaseUntil", "id" LIMIT 1`,
          [at],
        )
      )[0];
      if (!row) return undefined;
      await sql.changes(
        `UPDATE "tasks" SET "leaseUntil" = $1 WHERE "id" = $2`,
        [sql.timestamp(leaseUntil), row.id],
      );
      return row.id;
    });
  }

  /** The worker still holds it. */
  async renew(taskId: string, leaseUntil: Date): Promise<void> {
    await this.db.write((manager) => {
      const sql = sqlFor(manager);
      return sql.changes(
        `UPDATE "tasks" SET "leaseUntil" = $1 WHERE "id" = $2`,
        [sql.timestamp(leaseUntil), taskId],
      );
    });
  }

  /** Done with it: no lease; a queued one runs again from `runAfter`. */
  async release(taskId: string, runAfter: Date): Promise<void> {
    await this.db.write((manager) => {
      const sql = sqlFor(manager);
      return sql.changes(
        `UPDATE "tasks" SET "leaseUntil" = NULL, "runAfter" = $1 WHERE "id" = $2`,
        [sql.timestamp(runAfter), taskId],
      );
    });
  }
}
