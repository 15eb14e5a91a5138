import { USER_ID_MAX } from '../common/ids';

/** The vocabularies of projects, sections and agents. Sections are listed in their fixed display order. */
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

export const AGENT_TYPES = ['CODE', 'MARKETING', 'DESIGN'] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

export const AGENT_PROVIDERS = [
  'CODE_PROVIDER',
  'TEXT_PROVIDER',
  'IMAGE_PROVIDER',
] as const;
export type AgentProvider = (typeof AGENT_PROVIDERS)[number];

/** WORKING while it runs a task of its project, IDLE otherwise. */
export const AGENT_STATUSES = ['IDLE', 'WORKING'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const PROJECT_NAME_MAX = 100;
export const PROJECT_DESCRIPTION_MAX = 500;
/** A project's userId is a user id, bounded as every user id is. */
export const PROJECT_USER_ID_MAX = USER_ID_MAX;

/** The 429 of a client over PROJECT_CREATE_RATE_LIMIT. */
export const PROJECT_CREATE_RATE_LIMITED_MESSAGE =
  'Too many requests, retry later';
