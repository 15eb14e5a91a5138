import type {
  ListedProject,
  ProjectDetail,
  ProjectWithChildren,
} from './project-queries';

/** The response bodies of SPEC §4, assembled from views (project.views.ts). */

/** POST and PATCH (SPEC 4.1, 4.4): the project with sections and agents. */
export function presentProject(
  data: Pick<ProjectWithChildren, 'project' | 'sections' | 'agents'>,
) {
  return { ...data.project, sections: data.sections, agents: data.agents };
}

/** GET /api/projects (SPEC 4.2): with tasks and a _count of tasks and assets. */
export function presentListedProject(data: ListedProject) {
  return {
    ...presentProject(data),
    tasks: data.tasks,
    _count: { tasks: data.tasks.length, assets: data.assetCount },
  };
}

/** GET /api/projects/{id} (SPEC 4.3): sections carry their assets. */
export function presentProjectDetail(data: ProjectDetail) {
  return {
    ...data.project,
    sections: data.sections.map((section) => ({
      ...section,
      assets: data.assets.filter((asset) => asset.sectionId === section.id),
    })),
    agents: data.agents,
    tasks: data.tasks,
    assets: data.assets,
  };
}

export type ProjectBody = ReturnType<typeof presentProject>;
export type ListedProjectBody = ReturnType<typeof presentListedProject>;
export type ProjectDetailBody = ReturnType<typeof presentProjectDetail>;
