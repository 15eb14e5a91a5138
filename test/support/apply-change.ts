import type { ChangeEventBody } from './event-stream-client';

/** What a page holds of a project: GET /api/projects/{id}'s `project`. */
export interface PageProject {
  id: string;
  name: string;
  description: string | null;
  userId: string;
  updatedAt: string;
  sections: Array<
    { id: string; assets: PageAsset[] } & Record<string, unknown>
  >;
  agents: Array<{ id: string; status: string } & Record<string, unknown>>;
  tasks: Array<{ id: string; createdAt: string } & Record<string, unknown>>;
  assets: PageAsset[];
}

interface PageAsset {
  id: string;
  sectionId: string | null;
  createdAt: string;
  [field: string]: unknown;
}

/** Oldest first, as the project's answer lists assets. */
const byCreation = (a: PageAsset, b: PageAsset) =>
  a.createdAt === b.createdAt
    ? a.id.localeCompare(b.id)
    : a.createdAt.localeCompare(b.createdAt);

/**
 * Applies one change event to a page's project, as a frontend would,
 * without refetching: 'refetch' when the event says it left out what
 * changed (`truncated`). The ids and the ETag are the event's only
 * contract with the page; everything else comes from the data.
 */
export function applyChange(
  project: PageProject,
  event: ChangeEventBody,
): 'applied' | 'refetch' {
  const data = event.data as Record<string, unknown> & { truncated?: true };
  if (data.truncated) return 'refetch';
  switch (event.type) {
    case 'project.updated':
      Object.assign(project, data.values);
      break;
    case 'asset.created': {
      const asset = data.asset as PageAsset;
      project.assets = [...project.assets, asset].sort(byCreation);
      const section = project.sections.find((s) => s.id === asset.sectionId);
      if (section) section.assets = [...section.assets, asset].sort(byCreation);
      break;
    }
    case 'asset.deleted': {
      const gone = (asset: PageAsset) => asset.id !== data.assetId;
      project.assets = project.assets.filter(gone);
      for (const section of project.sections) {
        section.assets = section.assets.filter(gone);
      }
      break;
    }
    case 'task.updated': {
      const task = data.task as PageProject['tasks'][number];
      const others = project.tasks.filter((t) => t.id !== task.id);
      // Newest first, as the project's answer lists tasks.
      project.tasks = [...others, task].sort((a, b) =>
        a.createdAt === b.createdAt
          ? b.id.localeCompare(a.id)
          : b.createdAt.localeCompare(a.createdAt),
      );
      break;
    }
    case 'section.updated': {
      const section = project.sections.find((s) => s.id === data.sectionId);
      if (section) Object.assign(section, data.section);
      break;
    }
    case 'agent.updated': {
      const agent = project.agents.find((a) => a.id === data.agentId);
      if (agent) agent.status = data.status as string;
      break;
    }
  }
  return 'applied';
}

/** The version an ETag (`"7"`) names. */
export const versionOf = (etag: unknown): number =>
  Number(String(etag).replace(/"/g, ''));
