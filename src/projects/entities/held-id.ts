/**
 * Lets TypeORM's cascade save insert an entity whose id is already known
 * without first looking it up. save() SELECTs every entity that has an id,
 * to tell an insert from an update; an entity without one is new. So the
 * repository takes the id off each new entity before save (holdId) and the
 * entity's @BeforeInsert hook puts it back (restoreHeldId), before the
 * INSERT is built.
 */
const held = new WeakMap<object, string>();

export function holdId(entity: { id: string }): void {
  held.set(entity, entity.id);
  (entity as { id?: string }).id = undefined;
}

export function restoreHeldId(entity: { id: string }): void {
  const id = held.get(entity);
  if (id !== undefined) {
    entity.id = id;
    held.delete(entity);
  }
}
