import type { EntityManager, EntityMetadata, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { sqlFor } from '../database/sql';
import { Agent, Project, Section } from './entities';

/**
 * Writes a project from buildNewProject with its sections and agents: one
 * multi-row INSERT per table, inside the caller's transaction.
 *
 * The entities still declare the cascade, and `manager.save(project)` would
 * write the same rows; but save is built for entities that may already
 * exist: because the ids are set before saving, it first SELECTs each table
 * to tell inserts from updates, computes a change set per entity and
 * inserts the children one statement each. A new project needs none of
 * that. The statements come from the entities' metadata (table, columns,
 * the driver's conversion of each value, as save would store it), built
 * once per table and row count, so the driver's prepared-statement cache
 * serves every create after the first (measured A/B in
 * docs/performance.md).
 */
export async function insertNewProject(
  manager: EntityManager,
  project: Project,
): Promise<void> {
  const sql = sqlFor(manager);
  for (const [entity, rows] of [
    [Project, [project]],
    [Section, project.sections],
    [Agent, project.agents],
  ] as const) {
    const statement = insertStatement(manager, entity, rows.length);
    const driver = manager.connection.driver;
    const params: unknown[] = [];
    for (const row of rows as ObjectLiteral[]) {
      for (const column of statement.columns) {
        params.push(
          driver.preparePersistentValue(row[column.propertyName], column),
        );
      }
    }
    await sql.changes(statement.text, params);
  }
}

interface InsertStatement {
  /** With $-numbered placeholders (sqlFor adapts them to SQLite). */
  text: string;
  columns: ColumnMetadata[];
}

const statements = new WeakMap<EntityMetadata, Map<number, InsertStatement>>();

function insertStatement(
  manager: EntityManager,
  entity: new () => object,
  rowCount: number,
): InsertStatement {
  const metadata = manager.connection.getMetadata(entity);
  let byCount = statements.get(metadata);
  if (!byCount) {
    byCount = new Map();
    statements.set(metadata, byCount);
  }
  let statement = byCount.get(rowCount);
  if (!statement) {
    const escape = (name: string) => manager.connection.driver.escape(name);
    const columns = metadata.columns.filter(
      (column) => column.isInsert && !column.isVirtual,
    );
    let n = 0;
    const tuples = Array.from(
      { length: rowCount },
      () => `(${columns.map(() => `$${(n += 1)}`).join(', ')})`,
    );
    statement = {
      text:
        `INSERT INTO ${escape(metadata.tablePath)} ` +
        `(${columns.map((column) => escape(column.databaseName)).join(', ')}) ` +
        `VALUES ${tuples.join(', ')}`,
      columns,
    };
    byCount.set(rowCount, statement);
  }
  return statement;
}
