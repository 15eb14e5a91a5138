import { Agent, Asset, Project, Section, Task } from './entities';
import type {
  ListedProject,
  ProjectDetail,
  ProjectWithChildren,
} from './project-queries';

/**
 * The JSON shapes of SPEC §2. Fields are listed explicitly so that internal
 * columns (a section's position) and unloaded relations never leak, and every
 * timestamp is an ISO-8601 UTC string with milliseconds.
 */

const presentSection = (section: Section) => ({
  id: section.id,
  projectId: section.projectId,
  type: section.type,
  status: section.status,
  createdAt: section.createdAt.toISOString(),
  updatedAt: section.updatedAt.toISOString(),
});

const presentAgent = (agent: Agent) => ({
  id: agent.id,
  projectId: agent.projectId,
  name: agent.name,
  type: agent.type,
  provider: agent.provider,
  status: agent.status,
  createdAt: agent.createdAt.toISOString(),
  updatedAt: agent.updatedAt.toISOString(),
});

const presentTask = (task: Task) => ({
  id: task.id,
  projectId: task.projectId,
  sectionId: task.sectionId,
  agentId: task.agentId,
  title: task.title,
  description: task.description,
  status: task.status,
  createdAt: task.createdAt.toISOString(),
  updatedAt: task.updatedAt.toISOString(),
});

const presentAsset = (asset: Asset) => ({
  id: asset.id,
  projectId: asset.projectId,
  sectionId: asset.sectionId,
  type: asset.type,
  name: asset.name,
  url: asset.url,
  createdAt: asset.createdAt.toISOString(),
});

const presentProjectFields = (project: Project) => ({
  id: project.id,
  name: project.name,
  description: project.description,
  userId: project.userId,
  createdAt: project.createdAt.toISOString(),
  updatedAt: project.updatedAt.toISOString(),
});

/** POST and PATCH (SPEC 4.1, 4.4): the project with sections and agents. */
export function presentProject(
  data: Pick<ProjectWithChildren, 'project' | 'sections' | 'agents'>,
) {
  return {
    ...presentProjectFields(data.project),
    sections: data.sections.map(presentSection),
    agents: data.agents.map(presentAgent),
  };
}

/** GET /api/projects (SPEC 4.2): with tasks and a _count of tasks and assets. */
export function presentListedProject(data: ListedProject) {
  return {
    ...presentProject(data),
    tasks: data.tasks.map(presentTask),
    _count: { tasks: data.tasks.length, assets: data.assetCount },
  };
}

/** GET /api/projects/{id} (SPEC 4.3): sections carry their assets. */
export function presentProjectDetail(data: ProjectDetail) {
  const assetsOfSection = (sectionId: string) =>
    data.assets.filter((asset) => asset.sectionId === sectionId);
  return {
    ...presentProjectFields(data.project),
    sections: data.sections.map((section) => ({
      ...presentSection(section),
      assets: assetsOfSection(section.id).map(presentAsset),
    })),
    agents: data.agents.map(presentAgent),
    tasks: data.tasks.map(presentTask),
    assets: data.assets.map(presentAsset),
  };
}

export type ProjectBody = ReturnType<typeof presentProject>;
export type ListedProjectBody = ReturnType<typeof presentListedProject>;
export type ProjectDetailBody = ReturnType<typeof presentProjectDetail>;
