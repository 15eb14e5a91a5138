import type { Project } from './entities';
import { toProjectDto, type ProjectDto } from './dto/project-responses.dto';
import type { UpdateProjectDto } from './dto/update-project.dto';

/**
 * What a PATCH changed, as the project's answer shows it: each changed
 * field's new value, with the new updatedAt (every change moves it).
 */
export type ProjectValues = Partial<Pick<ProjectDto, keyof UpdateProjectDto>> &
  Pick<ProjectDto, 'updatedAt'>;

/** The values of `fields` (and updatedAt) of the project just changed. */
export function changedValues(
  project: Project,
  fields: ReadonlyArray<keyof UpdateProjectDto>,
): ProjectValues {
  const shown = toProjectDto(project);
  const values: ProjectValues = { updatedAt: shown.updatedAt };
  for (const field of fields) Object.assign(values, { [field]: shown[field] });
  return values;
}
