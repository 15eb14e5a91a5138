import { Injectable } from '@nestjs/common';
import { ChangeLog } from '../change-log/change-log.repository';
import { isWellFormedId } from '../common/ids';
import {
  Database,
  managerOf,
  type Transaction,
} from '../database/database.service';
import { sqlFor } from '../database/sql';
import { projectETag } from './project-version';
import { ownedBy } from './project-sql';
import type { ExpectedVersions } from './version-conditions';
import {
  ProjectNotFoundException,
  ProjectPreconditionFailedException,
} from './project-scope.errors';

/** The project a change applies to, and what it must find. */
export interface ProjectChange {
  projectId: string;
  /** Only a project of this user (a proven caller's own). */
  owner?: string;
  /** The request's If-Match: only while the project is at a version it names. */
  ifMatch?: ExpectedVersions;
  /**
   * The failure when, without If-Match, no such project (of that owner)
   * exists: each route answers it its own way (404, or PATCH and DELETE's
   * 500). With If-Match it is always 412.
   */
  missing: () => Error;
}

/** Why a change was refused: 412 with If-Match, else the route's own. */
const refusal = (change: ProjectChange): Error =>
  change.ifMatch === undefined
    ? change.missing()
    : new ProjectPreconditionFailedException();

/**
 * A project as every other feature reaches it (in the spirit of an access
 * repository): whose it is, whether a caller may see it, its name, and its
 * version. The projects feature owns the project's document; this owns
 * the small reads other features need (their SQL fragments are in
 * project-sql.ts), so "of this user" is decided in one place.
 *
 * It is also the only code that writes a project's version (its ETag),
 * and the only place that checks If-Match against it. Every change to a
 * project, its assets' included, calls `advance` first in its own
 * transaction: the version moves on and, on PostgreSQL, the row is held
 * until the commit, so changes to one project take turns.
 */
@Injectable()
export class ProjectScope {
  constructor(
    private readonly changeLog: ChangeLog,
    private readonly db: Database,
  ) {}

  /**
   * "Project not found" unless `projectId` is an id the project could have
   * and the project exists (and is `owner`'s, when one is given): what
   * every read of a project's sub-resources checks first.
   */
  async assertVisible(
    projectId: string,
    owner: string | undefined,
  ): Promise<void> {
    if (!isWellFormedId(projectId) || !(await this.isVisible(projectId, owner)))
      throw new ProjectNotFoundException();
  }

  /** Whether the project exists (and is `owner`'s, when one is given). */
  async isVisible(
    projectId: string,
    owner: string | undefined,
  ): Promise<boolean> {
    const rows = await this.db.read((manager) =>
      sqlFor(manager).rows(
        owner === undefined
          ? 'SELECT 1 FROM "projects" WHERE "id" = $1'
          : `SELECT 1 FROM "projects" WHERE "id" = $1 AND ${ownedBy(2)}`,
        owner === undefined ? [projectId] : [projectId, owner],
      ),
    );
    return rows.length === 1;
  }

  /** The project's name, when it exists (and is `owner`'s, when given). */
  async nameOf(
    projectId: string,
    owner: string | undefined,
  ): Promise<string | undefined> {
    const [row] = await this.db.read((manager) =>
      sqlFor(manager).rows<{ name: string }>(
        owner === undefined
          ? 'SELECT "name" FROM "projects" WHERE "id" = $1'
          : `SELECT "name" FROM "projects" WHERE "id" = $1 AND ${ownedBy(2)}`,
        owner === undefined ? [projectId] : [projectId, owner],
      ),
    );
    return row?.name;
  }

  /** The owner of a project the transaction holds (hold or advance). */
  async ownerOf(transaction: Transaction, projectId: string): Promise<string> {
    const [row] = await sqlFor(managerOf(transaction)).rows<{ userId: string }>(
      `SELECT "userId" FROM "projects" WHERE "id" = $1`,
      [projectId],
    );
    return row.userId;
  }

  /**
   * Moves the project's version on and answers the new one; throws
   * `missing()` when no such project (of that owner) exists, and 412 when
   * the request sent If-Match and the project is not at a version it
   * names.
   *
   * Without If-Match the increment is one UPDATE: a concurrent change
   * waits for the row and then applies on top. With If-Match the UPDATE
   * names the version it read, so of two changes made against one version
   * only one goes through; the other is refused, as If-Match asks.
   */
  async advance(
    transaction: Transaction,
    change: ProjectChange,
  ): Promise<number> {
    const versions = this.acceptedBy(change);
    const sql = sqlFor(managerOf(transaction));
    const { projectId, owner } = change;
    const ownerCheck = owner === undefined ? '' : ` AND ${ownedBy(2)}`;
    const params = owner === undefined ? [projectId] : [projectId, owner];
    if (!Array.isArray(versions)) {
      const changed = await sql.changes(
        `UPDATE "projects" SET "version" = "version" + 1 WHERE "id" = $1${ownerCheck}`,
        params,
      );
      if (changed === 0) throw refusal(change);
      // The row is this transaction's until it commits: this is our version.
      const [row] = await sql.rows<{
        version: number | string;
        userId: string;
      }>('SELECT "version", "userId" FROM "projects" WHERE "id" = $1', [
        projectId,
      ]);
      return this.moved(
        transaction,
        projectId,
        Number(row.version),
        row.userId,
      );
    }
    const [row] = await sql.rows<{ version: number | string; userId: string }>(
      `SELECT "version", "userId" FROM "projects" WHERE "id" = $1${ownerCheck}`,
      params,
    );
    const version = row ? Number(row.version) : undefined;
    if (!row || version === undefined || !versions.includes(version))
      throw refusal(change);
    const changed = await sql.changes(
      'UPDATE "projects" SET "version" = "version" + 1 WHERE "id" = $1 AND "version" = $2',
      [projectId, version],
    );
    if (changed === 0) throw refusal(change);
    return this.moved(transaction, projectId, version + 1, row.userId);
  }

  /** The change log must see an event of every version it moved. */
  private moved(
    transaction: Transaction,
    projectId: string,
    version: number,
    userId: string,
  ): number {
    this.changeLog.versioned(transaction, projectId, {
      etag: projectETag(version),
      userId,
    });
    return version;
  }

  /**
   * Refuses, before any statement is sent, a change that cannot apply
   * whatever the database holds: a malformed id, an If-Match that names
   * no version (weak or malformed tags). advance checks it too; callers
   * check it before they open their transaction.
   */
  precheck(change: ProjectChange): void {
    this.acceptedBy(change);
  }

  /** The versions the change accepts ('*': any); throws as precheck. */
  private acceptedBy(change: ProjectChange): ExpectedVersions {
    const versions = change.ifMatch ?? '*';
    if (!isWellFormedId(change.projectId)) throw refusal(change);
    if (versions !== '*' && versions.length === 0) throw refusal(change);
    return versions;
  }

  /**
   * Holds the project's row until the commit without changing it (a no-op
   * UPDATE: PostgreSQL locks the row, SQLite runs one transaction at a
   * time), so that work counting the project's children runs one after
   * another. False when no such project (of that owner) exists.
   */
  async hold(
    transaction: Transaction,
    target: { projectId: string; owner?: string },
  ): Promise<boolean> {
    const { projectId, owner } = target;
    const locked = await sqlFor(managerOf(transaction)).changes(
      owner === undefined
        ? 'UPDATE "projects" SET "version" = "version" WHERE "id" = $1'
        : `UPDATE "projects" SET "version" = "version" WHERE "id" = $1 AND ${ownedBy(2)}`,
      owner === undefined ? [projectId] : [projectId, owner],
    );
    return locked > 0;
  }
}
