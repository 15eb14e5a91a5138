/**
 * Marks a DTO whose OpenAPI schema admits no other property
 * (`additionalProperties: false`), for a body the service rejects when it
 * holds one. @nestjs/swagger has no class-level option for it, so the
 * schema names are collected here and applied once the document is built.
 */
const closedSchemaNames = new Set<string>();

export function ClosedSchema(): ClassDecorator {
  return (target) => {
    closedSchemaNames.add(target.name);
  };
}

export function closedSchemas(): ReadonlySet<string> {
  return closedSchemaNames;
}
