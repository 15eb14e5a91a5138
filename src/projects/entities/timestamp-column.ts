import { Column } from 'typeorm';

/**
 * A timestamp the application sets itself. TypeORM's Create/UpdateDateColumn
 * use SQLite's datetime('now'), which keeps whole seconds; a Date set in code
 * keeps milliseconds on SQLite and PostgreSQL alike.
 */
export function TimestampColumn(
  options: { nullable?: boolean } = {},
): PropertyDecorator {
  return Column({ type: Date, nullable: options.nullable ?? false });
}
