import { newId } from '../common/ids';
import { Agent, Project, Section } from './entities';
import { AgentProvider, AgentType, SECTION_TYPES } from './projects.constants';

/** Every new project gets these agents, all IDLE. */
export const DEFAULT_AGENTS: ReadonlyArray<{
  name: string;
  type: AgentType;
  provider: AgentProvider;
}> = [
  { name: 'Code Master', type: 'CODE', provider: 'CODE_PROVIDER' },
  { name: 'Content Writer', type: 'MARKETING', provider: 'TEXT_PROVIDER' },
  { name: 'Designer', type: 'DESIGN', provider: 'IMAGE_PROVIDER' },
];

export interface NewProjectInput {
  name: string;
  description?: string;
  userId: string;
}

/**
 * Every column of an entity, relations left out: what a new row sets. A
 * column added to an entity and not set here fails to compile.
 */
type NewRow<E> = {
  [
    K in keyof E as K extends
      'project' | 'sections' | 'agents' | 'tasks' | 'assets' | 'selectedAsset'
      ? never
      : K
  ]-?: E[K];
};

/**
 * A new project with its 8 sections (all PENDING, in the
 * fixed order) and 3 agents, ready to be saved in one go.
 */
export function buildNewProject(
  input: NewProjectInput,
  now = new Date(),
): Project {
  const project = Object.assign(new Project(), {
    id: newId(),
    name: input.name,
    description: input.description ?? null,
    userId: input.userId,
    createdAt: now,
    updatedAt: now,
    version: 1,
  } satisfies NewRow<Project>);
  project.sections = SECTION_TYPES.map((type, position) =>
    Object.assign(new Section(), {
      id: newId(),
      projectId: project.id,
      type,
      status: 'PENDING',
      selectedAssetId: null,
      position,
      createdAt: now,
      updatedAt: now,
    } satisfies NewRow<Section>),
  );
  project.agents = DEFAULT_AGENTS.map((agent) =>
    Object.assign(new Agent(), {
      id: newId(),
      projectId: project.id,
      ...agent,
      status: 'IDLE',
      createdAt: now,
      updatedAt: now,
    } satisfies NewRow<Agent>),
  );
  return project;
}
