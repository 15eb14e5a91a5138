import { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Agent, Asset, Project, Section, Task } from './entities';
import type { ProjectCursor } from './project-cursor';

/**
 * Reads projects with their children in one query per table — never one
 * query per project (N+1), and never one join across sections x agents x
 * tasks x assets (a cartesian product). Children are ordered explicitly.
 */

export interface ProjectWithChildren {
  project: Project;
  sections: Section[];
  agents: Agent[];
  tasks: Task[];
}

export interface ProjectDetail extends ProjectWithChildren {
  assets: Asset[];
}

export interface ListedProject extends ProjectWithChildren {
  assetCount: number;
}

/** Agents keep their creation order; ids are time-ordered (UUIDv7). */
const AGENT_ORDER = { createdAt: 'ASC', id: 'ASC' } as const;
/** SPEC 4.3: tasks newest first. */
const TASK_ORDER = { createdAt: 'DESC', id: 'DESC' } as const;

export async function findProjectDetail(
  manager: EntityManager,
  id: string,
): Promise<ProjectDetail | null> {
  const project = await manager.findOneBy(Project, { id });
  if (!project) return null;
  const where = { projectId: id };
  return {
    project,
    ...(await findSectionsAndAgents(manager, id)),
    tasks: await manager.find(Task, { where, order: TASK_ORDER }),
    assets: await manager.find(Asset, {
      where,
      order: { createdAt: 'ASC', id: 'ASC' },
    }),
  };
}

export async function findSectionsAndAgents(
  manager: EntityManager,
  projectId: string,
): Promise<{ sections: Section[]; agents: Agent[] }> {
  const where = { projectId };
  return {
    sections: await manager.find(Section, {
      where,
      order: { position: 'ASC' },
    }),
    agents: await manager.find(Agent, { where, order: AGENT_ORDER }),
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
  manager: EntityManager,
  { userId, page }: ProjectListOptions,
): Promise<ProjectList> {
  const query = manager
    .createQueryBuilder(Project, 'project')
    .orderBy('project.updatedAt', 'DESC')
    // The id breaks ties between projects updated in the same millisecond.
    .addOrderBy('project.id', 'DESC');
  if (userId !== undefined) {
    query.andWhere('project.userId = :userId', { userId });
  }
  if (page?.after) {
    query.andWhere(
      '(project.updatedAt < :at OR (project.updatedAt = :at AND project.id < :afterId))',
      {
        at: storedUpdatedAt(manager, page.after.updatedAt),
        afterId: page.after.id,
      },
    );
  }
  if (page) query.limit(page.limit + 1);

  const found = await query.getMany();
  const hasMore = page !== undefined && found.length > page.limit;
  const projects = hasMore ? found.slice(0, page.limit) : found;
  if (projects.length === 0) return { projects: [], hasMore };

  // A page names its projects; a full list selects children by the same
  // filter as its projects, so the query does not grow with the list.
  const children = <T extends ObjectLiteral>(
    entity: new () => T,
  ): SelectQueryBuilder<T> => {
    const childQuery = manager.createQueryBuilder(entity, 'child');
    if (page) {
      return childQuery.where('child.projectId IN (:...ids)', {
        ids: projects.map((project) => project.id),
      });
    }
    return userId === undefined
      ? childQuery
      : childQuery
          .innerJoin(Project, 'project', 'project.id = child.projectId')
          .where('project.userId = :userId', { userId });
  };

  const sections = await children(Section)
    .orderBy('child.projectId')
    .addOrderBy('child.position', 'ASC')
    .getMany();
  const agents = await children(Agent)
    .orderBy('child.createdAt', 'ASC')
    .addOrderBy('child.id', 'ASC')
    .getMany();
  const tasks = await children(Task)
    .orderBy('child.createdAt', 'DESC')
    .addOrderBy('child.id', 'DESC')
    .getMany();
  const assetCounts = await children(Asset)
    .select('child.projectId', 'projectId')
    .addSelect('COUNT(*)', 'count')
    .groupBy('child.projectId')
    .getRawMany<{ projectId: string; count: string | number }>();

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

/**
 * A timestamp as the driver stores it, for a hand-written comparison:
 * SQLite keeps UTC text, PostgreSQL a timestamptz.
 */
function storedUpdatedAt(manager: EntityManager, value: Date): unknown {
  const column = manager.connection
    .getMetadata(Project)
    .findColumnWithPropertyName('updatedAt');
  return column
    ? manager.connection.driver.preparePersistentValue(value, column)
    : value;
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
