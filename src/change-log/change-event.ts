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
  'run.updated',
] as const;

export type ChangeEventType = (typeof CHANGE_EVENT_TYPES)[number];

/**
 * The most bytes an event's data may hold, as its JSON, when it is
 * recorded: past it, the event is kept without its bulky part (see
 * BULKY_PART) and marked `truncated`, so one large value (a long
 * description, a task's big input) never makes every stream carry it.
 */
export const EVENT_DATA_LIMIT_BYTES = 16 * 1024;

/**
 * The shapes the events carry of what changed, as their answers present
 * them. The log sees plain objects (`object`): it cannot import the
 * features that record to it, so the streams (events/dto) fill these in
 * with the DTOs, and a compile-time check there keeps the two together.
 */
export interface ChangeShapes {
  asset: object;
  task: object;
  section: object;
  projectValues: object;
  run: object;
}

/**
 * What each type of event carries in `data`, as a repository records it;
 * the log adds the project's new `etag` to every type but
 * project.deleted. The bulky part (`asset`, `task`, `section`, `values`)
 * is optional: left out, with `truncated: true`, when the data would pass
 * EVENT_DATA_LIMIT_BYTES, and absent from events recorded before the log
 * carried it (the streams mark those `truncated` too).
 */
export interface ChangeDataOf<S extends ChangeShapes = ChangeShapes> {
  'project.created': Record<string, never>;
  'project.updated': {
    fields: string[];
    /** The changed fields' new values, with the project's new updatedAt. */
    values?: S['projectValues'];
    truncated?: true;
  };
  'project.deleted': Record<string, never>;
  'asset.created': {
    assetId: string;
    sectionId: string | null;
    kind: string;
    /** The asset as its answer shows it (stored without its url). */
    asset?: S['asset'];
    truncated?: true;
  };
  'asset.deleted': { assetId: string };
  'task.updated': {
    taskId: string;
    type: string;
    status: string;
    attempts: number;
    /**
     * Results kept of those the task will keep (absent from events
     * recorded before tasks kept their progress).
     */
    progress?: { done: number; total: number };
    /** The task as its answer shows it. */
    task?: S['task'];
    truncated?: true;
  };
  /** A choice, a status, or both (two drafts of one section merge). */
  'section.updated': {
    sectionId: string;
    status?: string;
    selectedAssetId?: string | null;
    /** The section as the project's answer shows it (without its assets). */
    section?: S['section'];
    truncated?: true;
  };
  'agent.updated': { agentId: string; status: string };
  /** A run or one of its steps moved (a step's task queued, a choice made…). */
  'run.updated': {
    runId: string;
    status: string;
    steps: Array<{
      type: string;
      taskId: string | null;
      status: string;
      attempt?: number;
    }>;
    /** The run as its answer shows it. */
    run?: S['run'];
    truncated?: true;
  };
}

/** The types whose data carries what changed whole, and that part's name. */
export const BULKY_PART = {
  'project.updated': 'values',
  'asset.created': 'asset',
  'task.updated': 'task',
  'section.updated': 'section',
  'run.updated': 'run',
} as const satisfies Partial<Record<ChangeEventType, string>>;

/** What an event of type T sends: its data and, but for a deletion, the ETag. */
export type SentChangeData<
  T extends ChangeEventType,
  S extends ChangeShapes = ChangeShapes,
> = T extends 'project.deleted'
  ? ChangeDataOf<S>[T]
  : ChangeDataOf<S>[T] & { etag: string };

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

/**
 * An event as the log keeps it and the streams send it (with S the
 * presented shapes: an asset's url is made as it is sent).
 */
export type ChangeEvent<S extends ChangeShapes = ChangeShapes> = {
  [T in ChangeEventType]: {
    /** Grows with every event: the stream's `id:` and Last-Event-ID. */
    id: string;
    type: T;
    projectId: string;
    /** The project's owner: only they (and admins) receive the event. */
    userId: string;
    /** When the change was made (ISO-8601 UTC). */
    at: string;
    data: SentChangeData<T, S>;
  };
}[ChangeEventType];
