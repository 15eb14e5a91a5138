import { Injectable } from '@nestjs/common';
import { ChangeLog } from '../change-log/change-log.repository';
import { managerOf, type Transaction } from '../database/database.service';
import { sqlFor } from '../database/sql';
import { ProjectScope } from '../project-scope/project-scope.repository';
import type { SectionDto } from './dto/section.dto';
import { RUNNING_TASK_STATUS } from './sections.constants';
import { SECTION_COLUMNS, sectionFromRow } from './sections.repository';

const RUNNING = `'${RUNNING_TASK_STATUS}'`;

/**
 * A section's status from what the database holds, in precedence order:
 * a task running for it, a chosen result, any result, nothing.
 */
const SECTION_STATUS = `CASE
  WHEN EXISTS (SELECT 1 FROM "tasks" WHERE "tasks"."sectionId" = "sections"."id" AND "tasks"."status" = ${RUNNING}) THEN 'IN_PROGRESS'
  WHEN "sections"."selectedAssetId" IS NOT NULL THEN 'DONE'
  WHEN EXISTS (SELECT 1 FROM "assets" WHERE "assets"."sectionId" = "sections"."id") THEN 'REVIEW'
  ELSE 'PENDING' END`;

/** An agent's status: WORKING while a task of its project runs on it. */
const AGENT_STATUS = `CASE
  WHEN EXISTS (SELECT 1 FROM "tasks" WHERE "tasks"."agentId" = "agents"."id" AND "tasks"."projectId" = "agents"."projectId" AND "tasks"."status" = ${RUNNING}) THEN 'WORKING'
  ELSE 'IDLE' END`;

// The status is compared as well as set, so only rows whose status moves
// are written and get a new updatedAt.
const REFRESH_SECTIONS = `UPDATE "sections" SET "status" = ${SECTION_STATUS}, "updatedAt" = $2 WHERE "projectId" = $1 AND "status" <> ${SECTION_STATUS} RETURNING ${SECTION_COLUMNS}`;
const REFRESH_AGENTS = `UPDATE "agents" SET "status" = ${AGENT_STATUS}, "updatedAt" = $2 WHERE "projectId" = $1 AND "status" <> ${AGENT_STATUS} RETURNING "id", "status"`;

/**
 * The only code that writes the statuses of sections and agents: they are
 * never set, always recomputed from tasks, assets and selections. Every
 * transaction that changes one of those calls `refresh` before it commits
 * (a task starting or settling, a result chosen or un-chosen, an asset
 * deleted), and moves the project's version on when it answers true.
 */
@Injectable()
export class WorkspaceStatuses {
  constructor(
    private readonly scope: ProjectScope,
    private readonly changeLog: ChangeLog,
  ) {}

  /**
   * Recomputes the status of every section and agent of the project;
   * true when any of them changed.
   */
  async refresh(transaction: Transaction, projectId: string): Promise<boolean> {
    // The project's row first (a no-op when the transaction holds it
    // already): every transaction then locks the project before its
    // sections and agents, whichever order its caller works in, so two of
    // them on PostgreSQL cannot each hold a row the other waits for.
    await this.scope.hold(transaction, { projectId });
    const sql = sqlFor(managerOf(transaction));
    const now = sql.timestamp(new Date());
    const sections = (
      await sql.changedRows<SectionDto>(REFRESH_SECTIONS, [projectId, now])
    ).map(sectionFromRow);
    const agents = await sql.changedRows<{ id: string; status: string }>(
      REFRESH_AGENTS,
      [projectId, now],
    );
    for (const section of sections) {
      this.changeLog.record(transaction, projectId, {
        type: 'section.updated',
        key: section.id,
        data: {
          sectionId: section.id,
          status: section.status,
          selectedAssetId: section.selectedAssetId,
          section,
        },
      });
    }
    for (const agent of agents) {
      this.changeLog.record(transaction, projectId, {
        type: 'agent.updated',
        key: agent.id,
        data: { agentId: agent.id, status: agent.status },
      });
    }
    return sections.length + agents.length > 0;
  }
}
