/** SQL a column of a new row starts with, written into the statement. */
export class SqlConstant {
  constructor(readonly sql: string) {}
}

/** A constant value: `constant("'QUEUED'")`, `constant('NULL')`, `constant('0')`. */
export const constant = (sql: string): SqlConstant => new SqlConstant(sql);

/**
 * What one column of a new row holds: a named parameter (a field of the
 * values the caller passes) or a constant.
 */
export type ColumnValue<Param extends string> = Param | SqlConstant;

/** The text of a one-row INSERT and the parameters it binds, in order. */
export interface RowInsert<Param extends string> {
  readonly text: string;
  params(values: Readonly<Record<Param, unknown>>): unknown[];
}

/**
 * A one-row INSERT built from the value of every column, in the order the
 * object lists them: a parameter is numbered where it is first used and
 * reused after (`$7` for three timestamps set to the same instant), a
 * constant is written as it is. The caller types the object with every
 * column of the table required (a mapped type over the entity's columns),
 * so a column added to the entity and left out here fails to compile
 * rather than being stored with its default.
 */
export function rowInsert<Param extends string>(
  table: string,
  columns: Readonly<Record<string, ColumnValue<Param>>>,
): RowInsert<Param> {
  const order: Param[] = [];
  const values = Object.values(columns).map((value) => {
    if (value instanceof SqlConstant) return value.sql;
    if (!order.includes(value)) order.push(value);
    return `$${order.indexOf(value) + 1}`;
  });
  const names = Object.keys(columns).map((name) => `"${name}"`);
  return {
    text: `INSERT INTO "${table}" (${names.join(', ')}) VALUES (${values.join(', ')})`,
    params: (given) => order.map((name) => given[name]),
  };
}
