import { ownedBy } from '../database/owner-predicate';

/**
 * The SQL fragments through which any statement reaches `projects`: the
 * owner predicate and the ways a child row (a task, an asset) names its
 * project. Only the project scope and the projects feature write SQL on
 * the table; every other repository composes these, so "of this user"
 * is written once.
 */

export { ownedBy };

/**
 * `EXISTS (…)`: the project whose id is `projectId` (a column or a
 * parameter) belongs to user $param.
 */
export const projectOwnedBy = (projectId: string, param: number): string =>
  `EXISTS (SELECT 1 FROM "projects" "p" WHERE "p"."id" = ${projectId} AND ${ownedBy(param, 'p')})`;

/** `JOIN "projects" "p"` on the project of the rows aliased `alias`. */
export const joinProject = (alias: string): string =>
  `JOIN "projects" "p" ON "p"."id" = "${alias}"."projectId"`;

/** The joined project's name, description and owner, as a claim reads them. */
export const PROJECT_SUMMARY_COLUMNS = `"p"."name" AS "projectName", "p"."description" AS "projectDescription", "p"."userId" AS "userId"`;
