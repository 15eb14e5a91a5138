import type {
  AgentDto,
  ProjectDto,
  ProjectWithDefaultsDto,
  SectionDto,
} from './dto/project-responses.dto';

/**
 * POST and PATCH: the project with sections and agents,
 * assembled from their DTOs (dto/project-responses.dto.ts). GET bodies are rendered by the
 * database (projects.repository.ts).
 */
export function presentProject(data: {
  project: ProjectDto;
  sections: SectionDto[];
  agents: AgentDto[];
}): ProjectWithDefaultsDto {
  return { ...data.project, sections: data.sections, agents: data.agents };
}
