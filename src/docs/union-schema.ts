import { getSchemaPath } from '@nestjs/swagger';

/** A named schema that is one of several DTOs, told apart by a property. */
interface UnionSchema {
  description: string;
  propertyName: string;
  /** The property's value -> the DTO whose schema it selects. */
  members: Record<string, () => unknown>;
}

/**
 * @nestjs/swagger names a schema only after a class, and a class cannot be
 * a `oneOf`: the unions are collected here and written into the document
 * once it is built (finishDocument), each as a `oneOf` of its members'
 * schemas with a `discriminator` and its `mapping`, which generators turn
 * into a tagged union (the member classes are ApiExtraModels of a route).
 */
const unions = new Map<string, UnionSchema>();

export function registerUnionSchema(name: string, union: UnionSchema): void {
  unions.set(name, union);
}

/** The `oneOf` of a union, by name, for a document's components. */
export function unionSchemas(): Map<string, object> {
  const schemas = new Map<string, object>();
  for (const [name, union] of unions) {
    const mapping = Object.fromEntries(
      Object.entries(union.members).map(([value, member]) => [
        value,
        getSchemaPath(member() as () => unknown),
      ]),
    );
    schemas.set(name, {
      description: union.description,
      oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
      discriminator: { propertyName: union.propertyName, mapping },
    });
  }
  return schemas;
}
