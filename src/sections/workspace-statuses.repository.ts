import { Injectable } from '@nestjs/common';
import { managerOf, type Transaction } from '../database/database.service';
import { sqlFor } from '../database/sql';

/** Placeholder until the sections feature lands: recomputes statuses. */
@Injectable()
export class WorkspaceStatuses {
  async refresh(transaction: Transaction, projectId: string): Promise<boolean> {
    const sql = sqlFor(managerOf(transaction));
    const now = sql.timestamp(new Date());
    const sections = await sql.changes(
      `UPDATE "sections" SET "status" = CASE
         WHEN EXISTS (SELECT 1 FROM "tasks" "t" WHERE "t"."sectionId" = "sections"."id" AND "t"."status" = 'RUNNING') THEN 'IN_PROGRESS'
         WHEN "selectedAssetId" IS NOT NULL THEN 'DONE'
         WHEN EXISTS (SELECT 1 FROM "assets" "a" WHERE "a"."sectionId" = "sections"."id") THEN 'REVIEW'
         ELSE 'PENDING' END, "updatedAt" = $2
       WHERE "projectId" = $1 AND "status" <> CASE
         WHEN EXISTS (SELECT 1 FROM "tasks" "t" WHERE "t"."sectionId" = "sections"."id" AND "t"."status" = 'RUNNING') THEN 'IN_PROGRESS'
         WHEN "selectedAssetId" IS NOT NULL THEN 'DONE'
         WHEN EXISTS (SELECT 1 FROM "assets" "a" WHERE "a"."sectionId" = "sections"."id") THEN 'REVIEW'
         ELSE 'PENDING' END`,
      [projectId, now],
    );
    const agents = await sql.changes(
      `UPDATE "agents" SET "status" = CASE WHEN EXISTS (SELECT 1 FROM "tasks" "t" WHERE "t"."agentId" = "agents"."id" AND "t"."status" = 'RUNNING') THEN 'WORKING' ELSE 'IDLE' END, "updatedAt" = $2
       WHERE "projectId" = $1 AND "status" <> CASE WHEN EXISTS (SELECT 1 FROM "tasks" "t" WHERE "t"."agentId" = "agents"."id" AND "t"."status" = 'RUNNING') THEN 'WORKING' ELSE 'IDLE' END`,
      [projectId, now],
    );
    return sections + agents > 0;
  }
}
