import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.service';
import { sqlFor } from '../database/sql';
import type { CallUnits } from './price-table';

/** Who a paid call counts against, and what for. */
export interface UsageScope {
  /** The client key: `user:<id>` with a token, `ip:<address>` without. */
  userKey: string;
  projectId: string | null;
  taskId: string | null;
}

/** A reservation to write, once its budgets allow it. */
export interface Reservation {
  scope: UsageScope;
  kind: 'image' | 'text';
  model: string;
  units: CallUnits;
  costMicros: number;
  day: string;
  month: string;
  at: Date;
}

/** The budgets a reservation must fit, in micro-dollars; undefined = none. */
export interface BudgetLimits {
  userDayMicros?: number;
  projectMonthMicros?: number;
}

/** Why a reservation was refused: the budget it would exceed. */
export type ReserveOutcome =
  | { reserved: true; id: number }
  | { reserved: false; over: 'user_day' | 'project_month' };

/** One project's (or no project's) spend, for GET /api/usage. */
export interface ProjectSpend {
  projectId: string | null;
  todayMicros: number;
  monthMicros: number;
}

/** Reservations and settlements both count: released ones do not. */
const COUNTED = `"state" <> 'released'`;

/**
 * The only code that reads and writes usage_ledger (sql/<dialect>/
 * usage-ledger.repository.sql lists its statements). Ledger rows are not
 * project changes: no route of a project answers differently after one,
 * so they write no change event.
 */
@Injectable()
export class UsageLedgerRepository {
  constructor(private readonly db: Database) {}

  /**
   * Checks the budgets and writes the reservation in one transaction, so
   * two calls at the budget's edge cannot both pass: on PostgreSQL under
   * transaction-scoped advisory locks of the user and then of the project
   * (always in that order: no two reservations wait on each other); on
   * SQLite every transaction already runs in turn.
   */
  reserve(
    reservation: Reservation,
    limits: BudgetLimits,
  ): Promise<ReserveOutcome> {
    return this.db.write(async (manager) => {
      const sql = sqlFor(manager);
      const { scope } = reservation;
      const locks = !this.db.serialized;
      if (limits.userDayMicros !== undefined) {
        if (locks) {
          await sql.rows('SELECT pg_advisory_xact_lock(hashtext($1))', [
            `usage:${scope.userKey}`,
          ]);
        }
        const [row] = await sql.rows<{ total: number | string }>(
          `SELECT COALESCE(SUM("costMicros"), 0) AS "total" FROM "usage_ledger" WHERE "userKey" = $1 AND "day" = $2 AND ${COUNTED}`,
          [scope.userKey, reservation.day],
        );
        if (Number(row.total) + reservation.costMicros > limits.userDayMicros) {
          return { reserved: false, over: 'user_day' } as const;
        }
      }
      if (limits.projectMonthMicros !== undefined && scope.projectId !== null) {
        if (locks) {
          await sql.rows('SELECT pg_advisory_xact_lock(hashtext($1))', [
            `usage-project:${scope.projectId}`,
          ]);
        }
        const [row] = await sql.rows<{ total: number | string }>(
          `SELECT COALESCE(SUM("costMicros"), 0) AS "total" FROM "usage_ledger" WHERE "projectId" = $1 AND "month" = $2 AND ${COUNTED}`,
          [scope.projectId, reservation.month],
        );
        if (
          Number(row.total) + reservation.costMicros >
          limits.projectMonthMicros
        ) {
          return { reserved: false, over: 'project_month' } as const;
        }
      }
      const [inserted] = await sql.rows<{ id: number | string }>(
        `INSERT INTO "usage_ledger" ("userKey", "projectId", "taskId", "kind", "model", "state", "images", "inputTokens", "outputTokens", "costMicros", "day", "month", "at") VALUES ($1, $2, $3, $4, $5, 'reserved', $6, $7, $8, $9, $10, $11, $12) RETURNING "id"`,
        [
          scope.userKey,
          scope.projectId,
          scope.taskId,
          reservation.kind,
          reservation.model,
          reservation.units.images,
          reservation.units.inputTokens,
          reservation.units.outputTokens,
          reservation.costMicros,
          reservation.day,
          reservation.month,
          sql.timestamp(reservation.at),
        ],
      );
      return { reserved: true, id: Number(inserted.id) } as const;
    });
  }

  /** The call ended: what it used and cost replace the estimate. */
  async settle(
    id: number,
    model: string,
    units: CallUnits,
    costMicros: number,
  ): Promise<void> {
    await this.db.write((manager) =>
      sqlFor(manager).changes(
        `UPDATE "usage_ledger" SET "state" = 'settled', "model" = $2, "images" = $3, "inputTokens" = $4, "outputTokens" = $5, "costMicros" = $6 WHERE "id" = $1 AND "state" = 'reserved'`,
        [
          id,
          model,
          units.images,
          units.inputTokens,
          units.outputTokens,
          costMicros,
        ],
      ),
    );
  }

  /** The call failed: its reservation no longer counts. */
  async release(id: number): Promise<void> {
    await this.db.write((manager) =>
      sqlFor(manager).changes(
        `UPDATE "usage_ledger" SET "state" = 'released' WHERE "id" = $1 AND "state" = 'reserved'`,
        [id],
      ),
    );
  }

  /** A user's spend this month and today, by project (null: no project). */
  spendOf(
    userKey: string,
    day: string,
    month: string,
  ): Promise<ProjectSpend[]> {
    return this.db.read(async (manager) => {
      const rows = await sqlFor(manager).rows<{
        projectId: string | null;
        today: number | string;
        month: number | string;
      }>(
        `SELECT "projectId", COALESCE(SUM(CASE WHEN "day" = $3 THEN "costMicros" ELSE 0 END), 0) AS "today", COALESCE(SUM("costMicros"), 0) AS "month" FROM "usage_ledger" WHERE "userKey" = $1 AND "month" = $2 AND ${COUNTED} GROUP BY "projectId" ORDER BY "projectId"`,
        [userKey, month, day],
      );
      return rows.map((row) => ({
        projectId: row.projectId,
        todayMicros: Number(row.today),
        monthMicros: Number(row.month),
      }));
    });
  }
}
