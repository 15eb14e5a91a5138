import { placeholders, Sql } from '../database/sql';
import type { ProjectCursor } from './project-cursor';
import {
  AgentView,
  AssetView,
  fromRow,
  ProjectView,
  SectionView,
  TaskView,
} from './project.views';

/**
 * The read side of projects, in hand-written SQL (see database/sql.ts for
 * why). Projects and their children are read with one query per table —
 * never one query per project (N+1), and never one join across sections x
 * agents x tasks x assets (a cartesian product). Children are ordered
 * explicitly; every query is served by an index of the initial migration.
 */

const PROJECT = [
  'id',
  'name',
  'description',
  'userId',
  'createdAt',
  'updatedAt',
];
const SECTION = ['id', 'projectId', 'type', 'status', 'createdAt', 'updatedAt'];
const AGENT = [
  'id',
  'projectId',
  'name',
  'type',
  'provider',
  'status',
  'createdAt',
  'updatedAt',
];
const TASK = [
  'id',
  'projectId',
  'sectionId',
  'agentId',
  'title',
  'description',
  'status',
  'createdAt',
  'updatedAt',
];
const ASSET = [
  'id',
  'projectId',
  'sectionId',
  'type',
  'name',
  'url',
  'createdAt',
];

/** `"a"."id", "a"."name", …`: quoted, so camelCase survives PostgreSQL. */
const columns = (names: string[], alias: string) =>
  names.map((name) => `"${alias}"."${name}"`).join(', ');

/** SPEC 4.1 section order; agents in creation order; SPEC 4.3 tasks newest first. */
const SECTION_ORDER = '"c"."position"';
const AGENT_ORDER = '"c"."createdAt", "c"."id"';
const TASK_ORDER = '"c"."createdAt" DESC, "c"."id" DESC';
const ASSET_ORDER = '"c"."createdAt", "c"."id"';

export interface ProjectWithChildren {
  project: ProjectView;
  sections: SectionView[];
  agents: AgentView[];
  tasks: TaskView[];
}

export interface ProjectDetail extends ProjectWithChildren {
  assets: AssetView[];
}

export interface ListedProject extends ProjectWithChildren {
  assetCount: number;
}

const PROJECT_BY_ID = `SELECT ${columns(PROJECT, 'p')} FROM "projects" "p" WHERE "p"."id" = $1`;
const OF_PROJECT = `WHERE "c"."projectId" = $1`;
const SECTIONS_OF_PROJECT = `SELECT ${columns(SECTION, 'c')} FROM "sections" "c" ${OF_PROJECT} ORDER BY ${SECTION_ORDER}`;
const AGENTS_OF_PROJECT = `SELECT ${columns(AGENT, 'c')} FROM "agents" "c" ${OF_PROJECT} ORDER BY ${AGENT_ORDER}`;
const TASKS_OF_PROJECT = `SELECT ${columns(TASK, 'c')} FROM "tasks" "c" ${OF_PROJECT} ORDER BY ${TASK_ORDER}`;
const ASSETS_OF_PROJECT = `SELECT ${columns(ASSET, 'c')} FROM "assets" "c" ${OF_PROJECT} ORDER BY ${ASSET_ORDER}`;

export async function findProjectDetail(
  sql: Sql,
  id: string,
): Promise<ProjectDetail | null> {
  const [project] = await sql.rows<ProjectView>(PROJECT_BY_ID, [id]);
  if (!project) return null;
  return {
    project: fromRow(project),
    ...(await findSectionsAndAgents(sql, id)),
    tasks: (await sql.rows<TaskView>(TASKS_OF_PROJECT, [id])).map(fromRow),
    assets: (await sql.rows<AssetView>(ASSETS_OF_PROJECT, [id])).map(fromRow),
  };
}

export async function findSectionsAndAgents(
  sql: Sql,
  projectId: string,
): Promise<{ sections: SectionView[]; agents: AgentView[] }> {
  return {
    sections: (
      await sql.rows<SectionView>(SECTIONS_OF_PROJECT, [projectId])
    ).map(fromRow),
    agents: (await sql.rows<AgentView>(AGENTS_OF_PROJECT, [projectId])).map(
      fromRow,
    ),
  };
}

export interface ProjectListOptions {
  userId?: string;
  /** Only when the client asked for a page (an addition to SPEC 4.2). */
  page?: { limit: number; after?: ProjectCursor };
}

export interface ProjectList {
  projects: ListedProject[];
  /** Whether projects follow the last one listed (pages only). */
  hasMore: boolean;
}

/** SPEC 4.2: every project, or those of one user, by updatedAt descending. */
export async function findProjectList(
  sql: Sql,
  { userId, page }: ProjectListOptions,
): Promise<ProjectList> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (userId !== undefined) {
    params.push(userId);
    conditions.push(`"p"."userId" = $${params.length}`);
  }
  if (page?.after) {
    params.push(sql.timestamp(page.after.updatedAt), page.after.id);
    const at = `$${params.length - 1}`;
    const id = `$${params.length}`;
    conditions.push(
      `("p"."updatedAt" < ${at} OR ("p"."updatedAt" = ${at} AND "p"."id" < ${id}))`,
    );
  }
  let text = `SELECT ${columns(PROJECT, 'p')} FROM "projects" "p"`;
  if (conditions.length > 0) text += ` WHERE ${conditions.join(' AND ')}`;
  // The id breaks ties between projects updated in the same millisecond.
  text += ` ORDER BY "p"."updatedAt" DESC, "p"."id" DESC`;
  if (page) {
    params.push(page.limit + 1);
    text += ` LIMIT $${params.length}`;
  }

  const found = (await sql.rows<ProjectView>(text, params)).map(fromRow);
  const hasMore = page !== undefined && found.length > page.limit;
  const projects = hasMore ? found.slice(0, page.limit) : found;
  if (projects.length === 0) return { projects: [], hasMore };

  // A page names its projects; a full list selects children by the same
  // filter as its projects, so the statement does not grow with the list.
  // Rows come grouped by project, in an order an index provides (a test
  // checks the plans).
  const scope = page
    ? {
        from: `WHERE "c"."projectId" IN (${placeholders(projects.length)})`,
        params: projects.map((project) => project.id),
        groupOrder: '"c"."projectId"',
      }
    : userId !== undefined
      ? {
          from: `JOIN "projects" "p" ON "p"."id" = "c"."projectId" WHERE "p"."userId" = $1`,
          params: [userId],
          groupOrder: '"p"."updatedAt" DESC, "p"."id" DESC',
        }
      : { from: '', params: [], groupOrder: '"c"."projectId"' };
  const children = <T extends { createdAt: string }>(
    table: string,
    names: string[],
    order: string,
  ) =>
    sql
      .rows<T>(
        `SELECT ${columns(names, 'c')} FROM "${table}" "c" ${scope.from} ORDER BY ${scope.groupOrder}, ${order}`,
        scope.params,
      )
      .then((rows) => rows.map(fromRow));

  const sections = await children<SectionView>(
    'sections',
    SECTION,
    SECTION_ORDER,
  );
  const agents = await children<AgentView>('agents', AGENT, AGENT_ORDER);
  const tasks = await children<TaskView>('tasks', TASK, TASK_ORDER);
  const assetCounts = await sql.rows<{
    projectId: string;
    count: string | number;
  }>(
    `SELECT "c"."projectId" AS "projectId", COUNT(*) AS "count" FROM "assets" "c" ${scope.from} GROUP BY "c"."projectId"`,
    scope.params,
  );

  const sectionsOf = groupByProject(sections);
  const agentsOf = groupByProject(agents);
  const tasksOf = groupByProject(tasks);
  const assetCountOf = new Map(
    assetCounts.map((row) => [row.projectId, Number(row.count)]),
  );
  return {
    hasMore,
    projects: projects.map((project) => ({
      project,
      sections: sectionsOf.get(project.id) ?? [],
      agents: agentsOf.get(project.id) ?? [],
      tasks: tasksOf.get(project.id) ?? [],
      assetCount: assetCountOf.get(project.id) ?? 0,
    })),
  };
}

function groupByProject<T extends { projectId: string }>(
  rows: T[],
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.projectId);
    if (group) group.push(row);
    else groups.set(row.projectId, [row]);
  }
  return groups;
}
