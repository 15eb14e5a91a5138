/**
 * An entity's columns as a JSON answer carries them: timestamps, Dates in
 * the entity, are ISO-8601 strings in the answer (null where the column
 * allows it).
 */
export type AnsweredColumns<Entity> = {
  [K in keyof Entity]: Entity[K] extends Date
    ? string
    : Entity[K] extends Date | null
      ? string | null
      : Entity[K];
};

/**
 * The fields of an entity that are columns: its relations (another entity,
 * or a list of them) left out. No entity keeps an object in a column (JSON
 * is stored as text), so every column holds a string, number, boolean or
 * Date, or null.
 */
export type ColumnOf<Entity> = {
  [K in keyof Entity]-?: NonNullable<Entity[K]> extends
    string | number | boolean | Date
    ? K
    : never;
}[keyof Entity] &
  string;

/** Null allowed in both or in neither. */
type SameNullability<A, B> = [null extends A ? true : false] extends [
  null extends B ? true : false,
]
  ? true
  : false;

/**
 * A column and a field that can hold each other's values: one type within
 * the other (a union of names within `string`), null allowed by both or by
 * neither.
 */
type Compatible<A, B> =
  SameNullability<A, B> extends true
    ? [NonNullable<A>] extends [NonNullable<B>]
      ? true
      : [NonNullable<B>] extends [NonNullable<A>]
        ? true
        : false
    : false;

/** Each way an entity and its response shape can drift apart. */
interface Drift<Entity, Shape, Internal, StoredAsJson> {
  /** A column added to the entity and neither answered nor called internal. */
  columnsNoAnswerShows: Exclude<ColumnOf<Entity>, Internal | keyof Shape>;
  /** A field added to the answer without its column. */
  fieldsWithoutColumn: Exclude<keyof Shape, ColumnOf<Entity>>;
  /** A column listed as internal that the answer shows after all. */
  internalColumnsTheAnswerShows: Extract<Internal, keyof Shape>;
  /** A field whose type the column cannot hold (JSON text aside). */
  fieldsOfAnotherType: {
    [K in Exclude<keyof Shape & ColumnOf<Entity>, StoredAsJson>]: Compatible<
      AnsweredColumns<Entity>[K],
      Shape[K]
    > extends true
      ? never
      : K;
  }[Exclude<keyof Shape & ColumnOf<Entity>, StoredAsJson>];
  /** A field said to be stored as JSON whose column is not text. */
  jsonFieldsNotText: {
    [K in StoredAsJson & ColumnOf<Entity>]: NonNullable<
      Entity[K]
    > extends string
      ? never
      : K;
  }[StoredAsJson & ColumnOf<Entity>];
}

/**
 * `true` when an entity's columns and a response shape's fields are the
 * same, but for the columns listed as `Internal` (stored, never answered:
 * a project's version, a task's schedule) and with the types an answer
 * carries (timestamps as strings); fields listed as `StoredAsJson` are
 * text columns the repository parses. Otherwise the drift found, to which
 * `true` cannot be assigned:
 *
 *     export const TASK_COLUMNS_ANSWERED: ColumnsAnswered<
 *       Task, TaskDto, 'updatedAt' | 'runAfter' | …, 'input' | …
 *     > = true;
 *
 * fails to compile, naming the field, the moment a column is added to the
 * entity and not to the DTO or the internal list, or a field to the DTO
 * and not to the entity.
 */
export type ColumnsAnswered<
  Entity,
  Shape,
  Internal extends ColumnOf<Entity>,
  StoredAsJson extends keyof Shape & ColumnOf<Entity> = never,
> = [
  Drift<Entity, Shape, Internal, StoredAsJson>[keyof Drift<
    Entity,
    Shape,
    Internal,
    StoredAsJson
  >],
] extends [never]
  ? true
  : {
      // Spelled out here, not behind an alias, so that the compiler's
      // message shows the kinds of drift found and the fields concerned.
      [
        K in keyof Drift<Entity, Shape, Internal, StoredAsJson> as [
          Drift<Entity, Shape, Internal, StoredAsJson>[K],
        ] extends [never]
          ? never
          : K
      ]: Drift<Entity, Shape, Internal, StoredAsJson>[K];
    };
