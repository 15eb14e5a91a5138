import { isoTimestamp, type JsonSql, type Sql } from '../database/sql';
import type { ProjectCursor } from './project-cursor';
import { AgentView, fromRow, SectionView } from './project.views';

/**
 * The read side of projects, in hand-written SQL (see database/sql.ts for
 * why). GET reads render their JSON in the database: one statement per
 * request, one row per project, its children gathered by correlated
 * subqueries that each seek one index (a test checks the plans) — never a
 * join across sections x agents x tasks x assets (a cartesian product).
 * Children are ordered explicitly, as docs/api.md documents the bodies.
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

/** Sections in their default order; agents in creation order; tasks newest first. */
const SECTION_ORDER = '"c"."position"';
const AGENT_ORDER = '"c"."createdAt", "c"."id"';
const TASK_ORDER = '"c"."createdAt" DESC, "c"."id" DESC';
const ASSET_ORDER = '"c"."createdAt", "c"."id"';

const TIMESTAMPS = new Set(['createdAt', 'updatedAt']);

/** The view's fields (project.views.ts) as JSON members, timestamps as ISO. */
const members = (json: JsonSql, names: string[], alias: string) =>
  Object.fromEntries(
    names.map((name) => {
      const column = `"${alias}"."${name}"`;
      return [name, TIMESTAMPS.has(name) ? json.timestamp(column) : column];
    }),
  );

const childrenOf = (table: string, alias: string, owner: string) =>
  `FROM "${table}" "${alias}" WHERE "${alias}"."projectId" = ${owner}`;

/**
 * A JSON array of one kind of child of project "p", each with its view's
 * fields (plus `extra` members), in `order`.
 */
const childArray = (
  json: JsonSql,
  table: string,
  names: string[],
  order: string,
  extra: Record<string, string> = {},
) =>
  json.array(
    json.object({ ...members(json, names, 'c'), ...extra }),
    childrenOf(table, 'c', '"p"."id"'),
    order,
  );

/** The JSON of a project as GET /api/projects lists it. */
function listedProject(json: JsonSql): string {
  const count = (table: string) =>
    `(SELECT COUNT(*) ${childrenOf(table, 'c', '"p"."id"')})`;
  return json.object({
    ...members(json, PROJECT, 'p'),
    sections: childArray(json, 'sections', SECTION, SECTION_ORDER),
    agents: childArray(json, 'agents', AGENT, AGENT_ORDER),
    tasks: childArray(json, 'tasks', TASK, TASK_ORDER),
    _count: json.object({ tasks: count('tasks'), assets: count('assets') }),
  });
}

/** The JSON of one project as GET /api/projects/{id} shows it. */
function projectDetail(json: JsonSql): string {
  const sectionAssets = json.array(
    json.object(members(json, ASSET, 'a')),
    `${childrenOf('assets', 'a', '"p"."id"')} AND "a"."sectionId" = "c"."id"`,
    '"a"."createdAt", "a"."id"',
  );
  return json.object({
    ...members(json, PROJECT, 'p'),
    sections: childArray(json, 'sections', SECTION, SECTION_ORDER, {
      assets: sectionAssets,
    }),
    agents: childArray(json, 'agents', AGENT, AGENT_ORDER),
    tasks: childArray(json, 'tasks', TASK, TASK_ORDER),
    assets: childArray(json, 'assets', ASSET, ASSET_ORDER),
  });
}

/** Rendered once per dialect, so each request reuses the same text. */
const rendered = new Map<JsonSql, { listed: string; detail: string }>();
function documentsOf(json: JsonSql) {
  let documents = rendered.get(json);
  if (!documents) {
    documents = {
      listed: json.document(listedProject(json)),
      detail: json.document(projectDetail(json)),
    };
    rendered.set(json, documents);
  }
  return documents;
}

/**
 * GET /api/projects/{id}: the project's JSON and its version, or null when no project has
 * that id (of that owner, when one is given).
 */
export async function findProjectDetail(
  sql: Sql,
  id: string,
  owner?: string,
): Promise<{ document: string; version: number } | null> {
  const [row] = await sql.rows<{ document: string; version: number }>(
    `SELECT ${documentsOf(sql.json).detail} AS "document", "p"."version" AS "version" FROM "projects" "p" WHERE "p"."id" = $1${owner === undefined ? '' : ' AND "p"."userId" = $2'}`,
    owner === undefined ? [id] : [id, owner],
  );
  return row ? { document: row.document, version: Number(row.version) } : null;
}

/** A project's version alone (an If-None-Match check), or null. */
export async function findProjectVersion(
  sql: Sql,
  id: string,
  owner?: string,
): Promise<number | null> {
  const [row] = await sql.rows<{ version: number }>(
    `SELECT "version" FROM "projects" WHERE "id" = $1${owner === undefined ? '' : ' AND "userId" = $2'}`,
    owner === undefined ? [id] : [id, owner],
  );
  return row ? Number(row.version) : null;
}

const SECTIONS_OF_PROJECT = `SELECT ${columns(SECTION, 'c')} FROM "sections" "c" WHERE "c"."projectId" = $1 ORDER BY ${SECTION_ORDER}`;
const AGENTS_OF_PROJECT = `SELECT ${columns(AGENT, 'c')} FROM "agents" "c" WHERE "c"."projectId" = $1 ORDER BY ${AGENT_ORDER}`;

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

/** A page of the list (optional `limit`/`cursor`): its size and start. */
export interface ProjectPage {
  limit: number;
  after?: ProjectCursor;
}

export interface ProjectList {
  /** Each listed project's JSON, in list order. */
  projects: string[];
  /** Where the page ends, when more projects follow it. */
  next?: ProjectCursor;
}

/** A statement with $-numbered parameters. */
export interface Statement {
  text: string;
  params: unknown[];
}

/**
 * GET /api/projects: every project, or those of one user, by updatedAt descending.
 * The first column is the project's JSON; id and updatedAt end a page.
 */
function listStatement(
  json: JsonSql,
  userId: string | undefined,
  page?: { limit: number; after?: { updatedAt: unknown; id: string } },
): Statement {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (userId !== undefined) {
    params.push(userId);
    conditions.push(`"p"."userId" = $${params.length}`);
  }
  if (page?.after) {
    params.push(page.after.updatedAt, page.after.id);
    const at = `$${params.length - 1}`;
    const id = `$${params.length}`;
    conditions.push(
      `("p"."updatedAt" < ${at} OR ("p"."updatedAt" = ${at} AND "p"."id" < ${id}))`,
    );
  }
  let text = `SELECT ${documentsOf(json).listed} AS "document", "p"."id" AS "id", "p"."updatedAt" AS "updatedAt" FROM "projects" "p"`;
  if (conditions.length > 0) text += ` WHERE ${conditions.join(' AND ')}`;
  // The id breaks ties between projects updated in the same millisecond.
  text += ` ORDER BY "p"."updatedAt" DESC, "p"."id" DESC`;
  if (page) {
    params.push(page.limit + 1);
    text += ` LIMIT $${params.length}`;
  }
  return { text, params };
}

/**
 * The whole list of GET /api/projects (every project, or one user's), for a
 * JsonCursor: its first column is each project's JSON, in list order.
 */
export const allProjectsStatement = (
  json: JsonSql,
  userId: string | undefined,
): Statement => listStatement(json, userId);

/** One page of the list and where the next page starts. */
export async function findProjectPage(
  sql: Sql,
  userId: string | undefined,
  page: ProjectPage,
): Promise<ProjectList> {
  const { text, params } = listStatement(sql.json, userId, {
    limit: page.limit,
    after: page.after && {
      updatedAt: sql.timestamp(page.after.updatedAt),
      id: page.after.id,
    },
  });
  const rows = await sql.rows<{
    document: string;
    id: string;
    updatedAt: unknown;
  }>(text, params);
  const hasMore = rows.length > page.limit;
  const listed = hasMore ? rows.slice(0, page.limit) : rows;
  const last = listed.at(-1);
  return {
    projects: listed.map((row) => row.document),
    next:
      hasMore && last
        ? { id: last.id, updatedAt: new Date(isoTimestamp(last.updatedAt)) }
        : undefined,
  };
}
