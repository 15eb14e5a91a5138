import type { EntityManager, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata';
import { sqlFor } from './sql';

/** An INSERT of `rows` rows into one table, from its entity's metadata. */
interface RowsInsert {
  text: string;
  columns: ColumnMetadata[];
}

const inserts = new WeakMap<EntityMetadata, Map<number, RowsInsert>>();

/** The columns an INSERT writes: each database column once. */
function writtenColumns(metadata: EntityMetadata): ColumnMetadata[] {
  const seen = new Set<string>();
  return metadata.columns.filter((column) => {
    if (column.isVirtual || seen.has(column.databaseName)) return false;
    seen.add(column.databaseName);
    return true;
  });
}

function insertOf(metadata: EntityMetadata, rows: number): RowsInsert {
  let bySize = inserts.get(metadata);
  if (!bySize) {
    bySize = new Map();
    inserts.set(metadata, bySize);
  }
  let insert = bySize.get(rows);
  if (!insert) {
    const columns = writtenColumns(metadata);
    const names = columns.map((column) => `"${column.databaseName}"`);
    const tuples = Array.from(
      { length: rows },
      (_, row) =>
        `(${columns.map((_column, index) => `$${row * columns.length + index + 1}`).join(', ')})`,
    );
    insert = {
      text: `INSERT INTO "${metadata.tableName}" (${names.join(', ')}) VALUES ${tuples.join(', ')}`,
      columns,
    };
    bySize.set(rows, insert);
  }
  return insert;
}

/**
 * Inserts an aggregate as its entities declare it: the root's row, then,
 * for every relation the root marks `cascade: ['insert']`, all of its
 * related rows — one multi-row INSERT per table, built once per shape from
 * TypeORM's metadata, values converted by the driver as TypeORM's own
 * writes convert them (dates, JSON). No lookup, no read-back: the rows are
 * new and their ids known. TypeORM's `save` does the same walk through its
 * unit of work (subjects, change maps, a query builder per row), which cost
 * most of a create's CPU (docs/decisions.md, "Creates").
 */
export async function insertAggregate<T extends ObjectLiteral>(
  manager: EntityManager,
  root: T,
): Promise<void> {
  const metadata = manager.connection.getMetadata(root.constructor);
  await insertRows(manager, metadata, [root]);
  for (const relation of metadata.relations) {
    if (!relation.isCascadeInsert) continue;
    const related: unknown = relation.getEntityValue(root);
    const rows = (
      Array.isArray(related) ? related : related ? [related] : []
    ) as ObjectLiteral[];
    if (rows.length > 0) {
      await insertRows(manager, relation.inverseEntityMetadata, rows);
    }
  }
}

async function insertRows(
  manager: EntityManager,
  metadata: EntityMetadata,
  rows: ObjectLiteral[],
): Promise<void> {
  const { text, columns } = insertOf(metadata, rows.length);
  const { driver } = manager.connection;
  const values: unknown[] = [];
  for (const row of rows) {
    for (const column of columns) {
      values.push(
        driver.preparePersistentValue(column.getEntityValue(row), column),
      );
    }
  }
  await sqlFor(manager).changes(text, values);
}
