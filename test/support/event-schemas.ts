import Ajv, { type ValidateFunction } from 'ajv';
import type { OpenApiDocument } from './openapi-responses';

/**
 * Validates an event's JSON against a schema of the OpenAPI document
 * (OpenAPI 3.0: `nullable`, `example` and `discriminator` beside JSON
 * Schema; formats are not checked here).
 */
export function documentSchemas(document: OpenApiDocument) {
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    validateFormats: false,
  });
  ajv.addSchema({ components: document.components }, 'openapi');
  const compiled = new Map<string, ValidateFunction>();
  return (name: string, value: unknown): string | undefined => {
    let validate = compiled.get(name);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi#/components/schemas/${name}` });
      compiled.set(name, validate);
    }
    return validate(value) ? undefined : ajv.errorsText(validate.errors);
  };
}
