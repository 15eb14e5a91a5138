import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  Database,
  managerOf,
  type Transaction,
} from '../database/database.service';
import { isoTimestamp, sqlFor } from '../database/sql';
import { ownedBy } from '../database/owner-predicate';
import type { ChangeDraft, ChangeEvent, ChangeEventType } from './change-event';
import { eventDataJson } from './event-data-json';

/** The channel PostgreSQL's NOTIFY wakes the other replicas on. */
export const CHANGE_CHANNEL = 'change_events';

/**
 * Held from the events' INSERT to the commit (PostgreSQL): transactions
 * write their events one at a time, so ids become visible in the order
 * they were given and a reader that has seen id n will never later find
 * a smaller one. SQLite runs one transaction at a time anyway.
 */
const APPEND_LOCK = 7_204_113_901;

/** The project whose version a transaction moved: the events' owner and ETag. */
interface Versioned {
  /** The project's ETag once the transaction commits. */
  etag: string;
  userId: string;
}

interface Pending {
  events: Map<string, { projectId: string; draft: ChangeDraft }>;
  projects: Map<string, Versioned>;
}

/** Which events a stream reads: one user's, one project's, or all. */
export interface ChangeScope {
  userId?: string;
  projectId?: string;
}

interface EventRow {
  id: number | string;
  type: ChangeEventType;
  projectId: string;
  userId: string;
  at: unknown;
  data: string;
}

const EVENT_COLUMNS = '"id", "type", "projectId", "userId", "at", "data"';

// The log writes only what record() was given for the row's type (and the
// ETag), so its data is that type's, as the union says.
const toEvent = (row: EventRow): ChangeEvent =>
  ({
    id: String(row.id),
    type: row.type,
    projectId: row.projectId,
    userId: row.userId,
    at: isoTimestamp(row.at),
    data: JSON.parse(row.data) as unknown,
  }) as ChangeEvent;

/**
 * The change log: the only code that writes change_events. Repositories
 * record an event with each write a project route would answer
 * differently after; ProjectScope tells it whose version moved. The
 * events are written as the transaction's last statements, so they commit
 * with the change or not at all — and a transaction that moved a
 * project's version without recording any event for it is rolled back:
 * no write path can skip its event unnoticed.
 */
@Injectable()
export class ChangeLog {
  private readonly postgres: boolean;
  private readonly pending = new WeakMap<Transaction, Pending>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly db: Database,
    @InjectDataSource() dataSource: DataSource,
  ) {
    this.postgres = dataSource.options.type === 'postgres';
  }

  /** Records an event of the project, written when the transaction commits. */
  record(
    transaction: Transaction,
    projectId: string,
    draft: ChangeDraft,
  ): void {
    const { events } = this.pendingOf(transaction);
    const key = `${draft.type} ${draft.key}`;
    const earlier = events.get(key);
    // One event per thing changed: the later data completes the earlier.
    events.set(key, {
      projectId,
      // The same type (it is in the key), so the merged data is its type's.
      draft: earlier
        ? ({
            ...draft,
            data: { ...earlier.draft.data, ...draft.data },
          } as ChangeDraft)
        : draft,
    });
  }

  /**
   * The project's version moved on in this transaction (or it is new): it
   * must record at least one event before committing, and its events
   * carry this ETag and owner. An event recorded for a project whose
   * version did not move is refused the same way: what a route shows and
   * its ETag move together.
   */
  versioned(
    transaction: Transaction,
    projectId: string,
    project: Versioned,
  ): void {
    this.pendingOf(transaction).projects.set(projectId, project);
  }

  /** Calls `listener` after every commit of this process that wrote events. */
  onAppended(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Events after `afterId` in id order, at most `limit`, of the scope. */
  after(
    afterId: number,
    scope: ChangeScope,
    limit: number,
  ): Promise<ChangeEvent[]> {
    const conditions = ['"id" > $1'];
    const params: unknown[] = [afterId];
    if (scope.userId !== undefined) {
      params.push(scope.userId);
      conditions.push(ownedBy(params.length));
    }
    if (scope.projectId !== undefined) {
      params.push(scope.projectId);
      conditions.push(`"projectId" = $${params.length}`);
    }
    params.push(limit);
    return this.db.read(async (manager) =>
      (
        await sqlFor(manager).rows<EventRow>(
          `SELECT ${EVENT_COLUMNS} FROM "change_events" WHERE ${conditions.join(' AND ')} ORDER BY "id" LIMIT $${params.length}`,
          params,
        )
      ).map(toEvent),
    );
  }

  /**
   * The newest id given, and the highest one purged: a stream may resume
   * exactly from any id between the two.
   */
  bounds(): Promise<{ latest: number; purgedThrough: number }> {
    return this.db.read(async (manager) => {
      const sql = sqlFor(manager);
      const [row] = await sql.rows<{ latest: unknown; purged: unknown }>(
        'SELECT (SELECT MAX("id") FROM "change_events") AS "latest", (SELECT "throughId" FROM "change_events_purged" WHERE "id" = 1) AS "purged"',
      );
      const purgedThrough = Number(row?.purged ?? 0);
      return {
        latest: Math.max(Number(row?.latest ?? 0), purgedThrough),
        purgedThrough,
      };
    });
  }

  /**
   * Deletes at most `limit` of the oldest events made before `before`, and
   * remembers the highest id deleted; how many it deleted.
   */
  purgeBatch(before: Date, limit: number): Promise<number> {
    return this.db.transaction(async (transaction) => {
      const sql = sqlFor(managerOf(transaction));
      const [row] = await sql.rows<{ through: unknown }>(
        // The oldest `limit` rows only (ids grow with time): a bounded read
        // of the primary key, however many rows are kept.
        'SELECT MAX("id") AS "through" FROM (SELECT "id", "at" FROM "change_events" ORDER BY "id" LIMIT $2) "oldest" WHERE "at" < $1',
        [sql.timestamp(before), limit],
      );
      if (row?.through === null || row?.through === undefined) return 0;
      const through = Number(row.through);
      const deleted = await sql.changes(
        'DELETE FROM "change_events" WHERE "id" <= $1',
        [through],
      );
      await sql.changes(
        'UPDATE "change_events_purged" SET "throughId" = $1 WHERE "id" = 1 AND "throughId" < $1',
        [through],
      );
      return deleted;
    });
  }

  private pendingOf(transaction: Transaction): Pending {
    let pending = this.pending.get(transaction);
    if (!pending) {
      const created: Pending = { events: new Map(), projects: new Map() };
      pending = created;
      this.pending.set(transaction, created);
      this.db.beforeCommit(transaction, () => this.write(transaction, created));
    }
    return pending;
  }

  /** The transaction's events, as its last statements. */
  private async write(
    transaction: Transaction,
    pending: Pending,
  ): Promise<void> {
    const recorded = new Set(
      [...pending.events.values()].map((event) => event.projectId),
    );
    for (const projectId of pending.projects.keys()) {
      if (!recorded.has(projectId)) {
        throw new Error(
          `Project ${projectId} changed without a change event: every write a project route shows records one`,
        );
      }
    }
    if (pending.events.size === 0) return;
    const sql = sqlFor(managerOf(transaction));
    const at = sql.timestamp(new Date());
    const values: string[] = [];
    const params: unknown[] = [];
    for (const { projectId, draft } of pending.events.values()) {
      const project = pending.projects.get(projectId);
      if (!project) {
        throw new Error(
          `Project ${projectId} recorded a change event without moving its version`,
        );
      }
      const data =
        draft.type === 'project.deleted'
          ? draft.data
          : { ...draft.data, etag: project.etag };
      params.push(
        draft.type,
        projectId,
        project.userId,
        at,
        eventDataJson(draft.type, data),
      );
      const n = params.length;
      values.push(`($${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`);
    }
    if (this.postgres) {
      await sql.rows('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK]);
    }
    await sql.changes(
      `INSERT INTO "change_events" ("type", "projectId", "userId", "at", "data") VALUES ${values.join(', ')}`,
      params,
    );
    // Delivered to the listening replicas when (and only if) this commits.
    if (this.postgres) {
      await sql.rows(`SELECT pg_notify('${CHANGE_CHANNEL}', '')`);
    }
    this.db.afterCommit(transaction, () => {
      for (const listener of this.listeners) listener();
    });
  }
}
