import type { OpenAPIObject } from '@nestjs/swagger';
import { closedSchemas } from './closed-schema.decorator';

type OperationObject = NonNullable<OpenAPIObject['paths'][string]['get']>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The project id of the document's other examples. */
const PROJECT_ID_EXAMPLE = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21';

/**
 * Node answers it before any route is known, so it is the same on every
 * operation (ProtocolErrorsModule): always `{error}`, the logo route too.
 */
const HEADERS_TOO_LARGE = {
  description: 'The request headers, the URL included, are over 16 KB',
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/ErrorResponseDto' },
      example: { error: 'Request headers are too large' },
    },
  },
};

/**
 * What the decorators cannot say, applied to the generated document: no
 * authentication (stated, so that linters and generators need not guess),
 * closed request schemas, an example for every `{id}`, the 431 every route
 * can answer, and a stable order.
 */
export function finishDocument(document: OpenAPIObject): OpenAPIObject {
  document.security = [];
  const schemas = document.components?.schemas ?? {};
  for (const name of closedSchemas()) {
    const schema = schemas[name];
    if (schema && !('$ref' in schema)) schema.additionalProperties = false;
  }
  for (const path of Object.values(document.paths)) {
    const operations = METHODS.map((method) => path[method]).filter(
      (operation): operation is OperationObject => operation !== undefined,
    );
    for (const operation of operations) {
      operation.responses['431'] ??= HEADERS_TOO_LARGE;
    }
    for (const parameter of operations.flatMap((op) => op.parameters ?? [])) {
      if (
        'in' in parameter &&
        parameter.in === 'path' &&
        parameter.name === 'id'
      ) {
        parameter.description ??= 'The project id';
        parameter.example ??= PROJECT_ID_EXAMPLE;
      }
    }
  }
  return withSortedRequiredLists(document);
}

/**
 * The order of a schema's `required` list follows the order in which the
 * decorators and the plugin's metadata were applied, which differs between
 * a `nest build` and a ts-node or ts-jest run. Sorted, the document is the
 * same text in every build, so the committed client can be compared with it.
 */
function withSortedRequiredLists(document: OpenAPIObject): OpenAPIObject {
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    if ('required' in schema && Array.isArray(schema.required)) {
      schema.required.sort();
    }
  }
  return document;
}
