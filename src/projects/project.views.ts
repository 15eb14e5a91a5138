import { isoTimestamp } from '../database/sql';
import type { Agent, Project, Section } from './entities';

/**
 * The JSON shapes of the API's resources, field by field. Internal columns (a section's
 * position) never appear, and timestamps are ISO-8601 UTC strings with
 * milliseconds.
 */

export interface ProjectView {
  id: string;
  name: string;
  description: string | null;
  userId: string;
  createdAt: string;
  updatedAt: string;
}

export interface SectionView {
  id: string;
  projectId: string;
  type: string;
  status: string;
  createdAt: string;
  updatedAt: string;
}

export interface AgentView {
  id: string;
  projectId: string;
  name: string;
  type: string;
  provider: string;
  status: string;
  createdAt: string;
  updatedAt: string;
}

export interface TaskView {
  id: string;
  projectId: string;
  sectionId: string | null;
  agentId: string | null;
  title: string;
  description: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
}

export interface AssetView {
  id: string;
  projectId: string;
  sectionId: string | null;
  type: string;
  name: string | null;
  url: string;
  createdAt: string;
}

/** A row selected with the view's columns, its timestamps made ISO. */
export function fromRow<T extends { createdAt: string }>(row: T): T {
  row.createdAt = isoTimestamp(row.createdAt);
  if ('updatedAt' in row) row.updatedAt = isoTimestamp(row.updatedAt);
  return row;
}

export const projectView = (project: Project): ProjectView => ({
  id: project.id,
  name: project.name,
  description: project.description,
  userId: project.userId,
  createdAt: project.createdAt.toISOString(),
  updatedAt: project.updatedAt.toISOString(),
});

export const sectionView = (section: Section): SectionView => ({
  id: section.id,
  projectId: section.projectId,
  type: section.type,
  status: section.status,
  createdAt: section.createdAt.toISOString(),
  updatedAt: section.updatedAt.toISOString(),
});

export const agentView = (agent: Agent): AgentView => ({
  id: agent.id,
  projectId: agent.projectId,
  name: agent.name,
  type: agent.type,
  provider: agent.provider,
  status: agent.status,
  createdAt: agent.createdAt.toISOString(),
  updatedAt: agent.updatedAt.toISOString(),
});
