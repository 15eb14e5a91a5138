/**
 * A project as the JSON text of its answer (`{"project":…}`, rendered by
 * the database on reads, so it is never parsed again) and its version.
 */
export interface ProjectDocument {
  id: string;
  version: number;
  json: string;
  /** When its asset URLs are signed: the epoch second they stop working. */
  urlsExpire?: number;
}

/**
 * What a GET found: the document, or only the version when the client's
 * copy (If-None-Match) is still current.
 */
export type ProjectRead =
  | ProjectDocument
  | { unchanged: true; id: string; version: number; urlsExpire?: number };
