/**
 * How a frontend uses the generated types (client/workspace-api.ts). The
 * api-docs suite type-checks this file: if the document and the client drift
 * apart, it stops compiling.
 */
import type { components, paths } from '../../client/workspace-api';

type CreateProjectBody =
  paths['/api/projects']['post']['requestBody']['content']['application/json'];
type CreatedProject =
  paths['/api/projects']['post']['responses']['201']['content']['application/json'];
type ProjectList =
  paths['/api/projects']['get']['responses']['200']['content']['application/json'];
type ListQuery = NonNullable<
  paths['/api/projects']['get']['parameters']['query']
>;
type LogoRequest =
  paths['/api/ai/generate-logo']['post']['requestBody']['content']['application/json'];
type LogoSuccess =
  paths['/api/ai/generate-logo']['post']['responses']['200']['content']['application/json'];
type LogoBusy =
  paths['/api/ai/generate-logo']['post']['responses']['503']['content']['application/json'];
type NotFound =
  paths['/api/projects/{id}']['get']['responses']['404']['content']['application/json'];

export const body: CreateProjectBody = {
  name: 'Spring launch',
  description: 'Brand kit',
  userId: 'user-1',
};

export const query: ListQuery = { userId: 'user-1', limit: 20, cursor: 'abc' };

export const logo: LogoRequest = {
  projectId: 'p1',
  companyName: 'Acme',
  style: 'geometric',
  colors: ['navy'],
  mood: ['bold'],
};

export function sectionTypes(created: CreatedProject): string[] {
  return created.project.sections.map((section) => section.type);
}

export function firstLogoSection(
  created: CreatedProject,
): components['schemas']['SectionDto'] | undefined {
  return created.project.sections.find((section) => section.type === 'LOGO');
}

export function nextPage(list: ProjectList): string | null | undefined {
  return list.nextCursor;
}

export function counts(list: ProjectList): number[] {
  return list.projects.map((project) => project._count.tasks);
}

export function logoUrl(answer: LogoSuccess): string {
  return answer.success ? answer.logoUrl : '';
}

export function busyText(answer: LogoBusy): string {
  return answer.error;
}

export function notFound(answer: NotFound): string {
  return answer.error;
}
