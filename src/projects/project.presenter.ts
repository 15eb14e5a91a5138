import type { AgentView, ProjectView, SectionView } from './project.views';

/**
 * POST and PATCH: the project with sections and agents,
 * assembled from views (project.views.ts). GET bodies are rendered by the
 * database (projects.repository.ts).
 */
export function presentProject(data: {
  project: ProjectView;
  sections: SectionView[];
  agents: AgentView[];
}) {
  return { ...data.project, sections: data.sections, agents: data.agents };
}
