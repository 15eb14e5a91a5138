/**
 * An entity's columns as a JSON answer carries them: timestamps, Dates in
 * the entity, are ISO-8601 strings in the answer.
 */
export type AnsweredColumns<Entity> = {
  [K in keyof Entity]: Entity[K] extends Date ? string : Entity[K];
};

/**
 * Compiles only when every field of a response shape is a column of the
 * entity, of the type the entity holds: a field added to a response DTO
 * without its column (or the other way round, a column renamed) points
 * here.
 */
export type ColumnsOfEntity<
  Entity,
  Shape extends {
    [K in keyof Shape]: K extends keyof Entity
      ? AnsweredColumns<Entity>[K]
      : never;
  },
> = Shape;
