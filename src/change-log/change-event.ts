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
 * An event as a repository records it. `key` names the thing that changed
 * (a task's, section's or agent's id; the project's for project events):
 * two events of one type and key in one transaction become one, the later
 * data winning over the earlier. `data` holds only what the project's
 * owner may read anyway.
 */
export interface ChangeDraft {
  type: ChangeEventType;
  key: string;
  data: Record<string, unknown>;
}

/** An event as the log keeps it and the streams send it. */
export interface ChangeEvent {
  /** Grows with every event: the stream's `id:` and Last-Event-ID. */
  id: string;
  type: ChangeEventType;
  projectId: string;
  /** The project's owner: only they (and admins) receive the event. */
  userId: string;
  /** When the change was made (ISO-8601 UTC). */
  at: string;
  data: Record<string, unknown>;
}
