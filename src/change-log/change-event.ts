/**
 * What the change log holds and the live-change streams send: one event
 * per change a project route would answer differently after.
 */
export const CHANGE_EVENT_TYPES = [
  'project.created',
  'project.updated',
  'project.deleted',
  'asset.created',
  'asset.deleted',
  'task.updated',
  'section.updated',
  'agent.updated',
] as const;

export type ChangeEventType = (typeof CHANGE_EVENT_TYPES)[number];

/**
 * What each type of event carries in `data`, as a repository records it;
 * the log adds the project's new `etag` to every type but
 * project.deleted. The streams' OpenAPI schema (events/dto) describes the
 * same shapes, and a compile-time check there keeps the two together.
 */
export interface ChangeDataOf {
  'project.created': Record<string, never>;
  'project.updated': { fields: string[] };
  'project.deleted': Record<string, never>;
  'asset.created': { assetId: string; sectionId: string | null; kind: string };
  'asset.deleted': { assetId: string };
  'task.updated': {
    taskId: string;
    type: string;
    status: string;
    attempts: number;
    /** Results kept of those the task will keep. */
    progress: { done: number; total: number };
  };
  /** A choice, a status, or both (two drafts of one section merge). */
  'section.updated': {
    sectionId: string;
    status?: string;
    selectedAssetId?: string | null;
  };
  'agent.updated': { agentId: string; status: string };
}

/** What an event of type T sends: its data and, but for a deletion, the ETag. */
export type SentChangeData<T extends ChangeEventType> =
  T extends 'project.deleted'
    ? ChangeDataOf[T]
    : ChangeDataOf[T] & { etag: string };

/**
 * An event as a repository records it. `key` names the thing that changed
 * (a task's, section's or agent's id; the project's for project events):
 * two events of one type and key in one transaction become one, the later
 * data winning over the earlier. `data` holds only what the project's
 * owner may read anyway.
 */
export type ChangeDraft = {
  [T in ChangeEventType]: { type: T; key: string; data: ChangeDataOf[T] };
}[ChangeEventType];

/** An event as the log keeps it and the streams send it. */
export type ChangeEvent = {
  [T in ChangeEventType]: {
    /** Grows with every event: the stream's `id:` and Last-Event-ID. */
    id: string;
    type: T;
    projectId: string;
    /** The project's owner: only they (and admins) receive the event. */
    userId: string;
    /** When the change was made (ISO-8601 UTC). */
    at: string;
    data: SentChangeData<T>;
  };
}[ChangeEventType];
