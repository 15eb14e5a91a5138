import { getMetadataStorage } from 'class-validator';

/** A DTO's class, as the metadata storages key it. */
export type DtoClass = abstract new (...args: never[]) => unknown;

/** Per DTO class: the names of the properties it declares rules for. */
const declaredByClass = new WeakMap<DtoClass, ReadonlySet<string>>();

/**
 * The properties a DTO declares, read once per class from class-validator's
 * metadata (every decorated property, inherited ones included). A property
 * with no rule at all would be stripped by `whitelist` anyway.
 */
export function declaredProperties(dto: DtoClass): ReadonlySet<string> {
  let names = declaredByClass.get(dto);
  if (!names) {
    names = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .map((rule) => rule.propertyName),
    );
    declaredByClass.set(dto, names);
  }
  return names;
}

/**
 * A new object holding only the own properties of `body` that the DTO
 * declares, values as they are. Its cost is the number of declared
 * properties, whatever the body holds: the unknown keys of a body are never
 * looked at, so no later step (class-transformer de-duplicates an object's
 * keys by comparing each with every other) sees them.
 */
export function keepDeclaredProperties(
  body: object,
  dto: DtoClass,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const name of declaredProperties(dto)) {
    if (Object.hasOwn(body, name)) {
      kept[name] = (body as Record<string, unknown>)[name];
    }
  }
  return kept;
}
