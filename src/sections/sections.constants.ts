/**
 * The vocabularies of sections and of the statuses WorkspaceStatuses
 * computes. Kept here, not in projects, so that sections depends on no
 * other feature; projects.constants re-exports them. Sections are listed
 * in their fixed display order.
 */
export const SECTION_TYPES = [
  'LOGO',
  'ICONS',
  'GRAPHICS',
  'MARKETING',
  'WIREFRAME',
  'CODE',
  'TESTING',
  'DEPLOYMENT',
] as const;
export type SectionType = (typeof SECTION_TYPES)[number];

/**
 * PENDING until a task works on it; IN_PROGRESS while one runs; REVIEW when
 * it holds results and none is chosen; DONE once one is chosen.
 */
export const SECTION_STATUSES = [
  'PENDING',
  'IN_PROGRESS',
  'REVIEW',
  'DONE',
] as const;
export type SectionStatus = (typeof SECTION_STATUSES)[number];

/** WORKING while it runs a task of its project, IDLE otherwise. */
export const AGENT_STATUSES = ['IDLE', 'WORKING'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** The status of a task being run (src/tasks writes it). */
export const RUNNING_TASK_STATUS = 'RUNNING';
