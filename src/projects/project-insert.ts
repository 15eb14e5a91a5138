import type { EntityManager } from 'typeorm';
import { Agent, Project, Section } from './entities';

/**
 * Writes a project from buildNewProject with its sections and agents: one
 * INSERT per table, through the entities' metadata (column names,
 * transformers, the version column), inside the caller's transaction.
 *
 * The entities still declare the cascade, and `manager.save(project)` would
 * write the same rows; but save is built for entities that may already
 * exist: because the ids are set before saving, it first SELECTs each table
 * to tell inserts from updates, computes a change set per entity and
 * inserts the children one statement each. A new project needs none of
 * that (measured A/B in docs/performance.md).
 */
export async function insertNewProject(
  manager: EntityManager,
  project: Project,
): Promise<void> {
  const insert = <T extends object>(
    entity: new () => T,
    rows: T | T[],
  ): Promise<unknown> =>
    manager
      .createQueryBuilder()
      .insert()
      .into(entity)
      .values(rows)
      // The rows are complete as built: nothing to read back.
      .updateEntity(false)
      .execute();
  await insert(Project, project);
  await insert(Section, project.sections);
  await insert(Agent, project.agents);
}
