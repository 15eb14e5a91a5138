import { USER_ID_MAX } from '../common/ids';

/** The vocabularies of projects and agents. */
export {
  AGENT_STATUSES,
  SECTION_STATUSES,
  SECTION_TYPES,
  type AgentStatus,
  type SectionStatus,
  type SectionType,
} from '../sections/sections.constants';

export const AGENT_TYPES = ['CODE', 'MARKETING', 'DESIGN'] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

export const AGENT_PROVIDERS = [
  'CODE_PROVIDER',
  'TEXT_PROVIDER',
  'IMAGE_PROVIDER',
] as const;
export type AgentProvider = (typeof AGENT_PROVIDERS)[number];

export const PROJECT_NAME_MAX = 100;
export const PROJECT_DESCRIPTION_MAX = 500;
/** A project's userId is a user id, bounded as every user id is. */
export const PROJECT_USER_ID_MAX = USER_ID_MAX;

/** The 429 of a client over PROJECT_CREATE_RATE_LIMIT. */
export const PROJECT_CREATE_RATE_LIMITED_MESSAGE =
  'Too many requests, retry later';
