/**
 * A request's conditions on a project's version, as the services take
 * them: the edge reads If-Match and If-None-Match into these
 * (project-scope/preconditions.decorator.ts), so no service or repository
 * parses an entity-tag.
 */

/**
 * If-Match: the versions a change may apply to — any (`*`), or these. An
 * empty list accepts none (every tag was weak or malformed): the change is
 * refused with 412.
 */
export type ExpectedVersions = '*' | readonly number[];

/**
 * If-None-Match: the representations the client already holds — any
 * (`*`), or these entity-tags' opaque values (compared weakly, as a GET
 * does).
 */
export type HeldRepresentations = '*' | readonly string[];
