import type { OpenAPIObject } from '@nestjs/swagger';
import {
  AUTH_EXTENSION,
  type RouteAuth,
} from '../failures/failure-responses.openapi';
import { closedSchemas } from './closed-schema.decorator';
import {
  MULTIPART_BODY_EXTENSION,
  type MediaTypeObject,
} from './multipart-body.openapi';
import { unionSchemas } from './union-schema';

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
      example: {
        error: 'Request headers are too large',
        code: 'headers_too_large',
      },
    },
  },
};

/** Sent on every answer by the operations middleware, errors included. */
const REQUEST_ID_HEADER = {
  description:
    "The request's id: the caller's own X-Request-Id when plausible (1 to 128 letters, digits or `._:/+=-`), otherwise a new UUID; also in the request's log line",
  schema: { type: 'string', example: '6f1c2a7e-3d4b-4f0a-9a51-3c1f5d0b8e21' },
};

/**
 * Who must prove themselves on an /api operation. Optional authentication
 * is the alternative "a bearer token, or nothing": a plain `[]` (no
 * requirement) made generated SDKs (@hey-api/openapi-ts among them) drop
 * the token their user configured, so a client generated from a server
 * without authentication never sent it to one with it.
 */
const securityOf = (bearerRequired: boolean): Record<string, string[]>[] =>
  bearerRequired ? [{ bearer: [] }] : [{ bearer: [] }, {}];

/**
 * Who may call the operation, as its route's decorator declared it
 * (ApiAuth): the `security` of the operation, which depends on AUTH_MODE,
 * or undefined for an operation outside authentication (health, metrics).
 */
function securityOfOperation(
  operation: OperationObject,
  bearerRequired: boolean,
): Record<string, string[]>[] | undefined {
  const declared = operation as OperationObject & {
    [AUTH_EXTENSION]?: RouteAuth;
  };
  const auth = declared[AUTH_EXTENSION];
  delete declared[AUTH_EXTENSION];
  if (auth === undefined) return undefined;
  return auth === 'public' ? [] : securityOf(bearerRequired);
}

/**
 * What holds for every operation, or depends on the server's mode, applied
 * to the generated document: the security each route declared (ApiAuth),
 * stated for the mode (by default a bearer token or none, so that linters
 * and generators need not guess; with AUTH_MODE=oidc a bearer token, and
 * `userId` optional on create),
 * the tagged unions (union-schema.ts), closed request schemas, an example for every `{id}`, the 431 every route
 * can answer, `X-Request-Id` on every response, optional parameters
 * without an example Swagger UI would send, and a stable order.
 */
export function finishDocument(
  document: OpenAPIObject,
  bearerRequired = false,
): OpenAPIObject {
  document.security = [];
  document.components ??= {};
  document.components.securitySchemes = {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description:
        'An access token of the OpenID Provider (AUTH_ISSUER) for AUTH_AUDIENCE; required only when the server runs with AUTH_MODE=oidc',
    },
  };
  const schemas = (document.components.schemas ??= {});
  for (const [name, union] of unionSchemas()) schemas[name] = union;
  for (const name of closedSchemas()) {
    const schema = schemas[name];
    if (schema && !('$ref' in schema)) schema.additionalProperties = false;
  }
  for (const path of Object.values(document.paths)) {
    const operations = METHODS.map((method) => path[method]).filter(
      (operation): operation is OperationObject => operation !== undefined,
    );
    for (const operation of operations) {
      const security = securityOfOperation(operation, bearerRequired);
      if (security) operation.security = security;
      operation.responses['431'] ??= HEADERS_TOO_LARGE;
      addRequestIdHeader(operation);
      addMultipartBody(operation);
      for (const parameter of operation.parameters ?? []) {
        if ('in' in parameter && !parameter.required) {
          if (bearerRequired && parameter.name === 'userId') {
            dropExample(parameter);
          } else {
            moveExampleToDescription(parameter);
          }
        }
      }
      if (bearerRequired) dropUserIdFromBodyExamples(operation);
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
  if (bearerRequired) userIdFromToken(document);
  return withSortedRequiredLists(document);
}

/** A route's form body (ApiMultipartBody) beside its JSON one. */
function addMultipartBody(operation: OperationObject): void {
  const extended = operation as OperationObject & Record<string, unknown>;
  const media = extended[MULTIPART_BODY_EXTENSION];
  if (media === undefined) return;
  delete extended[MULTIPART_BODY_EXTENSION];
  const body = operation.requestBody;
  if (!body || '$ref' in body) return;
  body.content['multipart/form-data'] = media as MediaTypeObject;
}

function addRequestIdHeader(operation: OperationObject): void {
  for (const response of Object.values(operation.responses)) {
    if (!response || '$ref' in response) continue;
    response.headers = {
      ...response.headers,
      'X-Request-Id': REQUEST_ID_HEADER,
    };
  }
}

type ParameterObject = Exclude<
  NonNullable<OperationObject['parameters']>[number],
  { $ref: string }
>;

/**
 * Swagger UI's "Try it out" fills every parameter with its example and
 * sends it: `userId=user-1&limit=20&cursor=…` (a 403 for any other user
 * with a real token, a page instead of the list), `If-Match: "3"` (a 412).
 * An optional parameter's example is given in its description instead, so
 * it is sent only when the user types it.
 */
function moveExampleToDescription(parameter: ParameterObject): void {
  const example = dropExample(parameter);
  if (example === undefined) return;
  const shown = typeof example === 'string' ? example : JSON.stringify(example);
  const text = parameter.description?.trim() ?? '';
  const sentence = text === '' || /[.!?]$/.test(text) ? text : `${text}.`;
  parameter.description = `${sentence} Example: \`${shown}\``.trim();
}

/** Removes the parameter's example and gives it back. */
function dropExample(parameter: ParameterObject): unknown {
  const schema =
    parameter.schema && !('$ref' in parameter.schema)
      ? parameter.schema
      : undefined;
  const example: unknown = parameter.example ?? schema?.example;
  delete parameter.example;
  if (schema) delete schema.example;
  return example;
}

/**
 * With a bearer token the example user of the request bodies is somebody
 * else: Swagger UI's first "Execute" would send `userId: "user-1"` and get
 * a 403. The token says who the caller is, so the examples leave it out.
 */
function dropUserIdFromBodyExamples(operation: OperationObject): void {
  const body = operation.requestBody;
  if (!body || '$ref' in body) return;
  for (const media of Object.values(body.content)) {
    if (media.example !== undefined) {
      media.example = withoutUserId(media.example);
    }
    for (const example of Object.values(media.examples ?? {})) {
      if (!('$ref' in example)) example.value = withoutUserId(example.value);
    }
  }
}

/**
 * A copy: the example objects are the route decorators' own, shared by
 * every document built in the process.
 */
function withoutUserId(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || !('userId' in value)) {
    return value;
  }
  const copy: Record<string, unknown> = { ...value };
  delete copy.userId;
  return copy;
}

/**
 * With AUTH_MODE=oidc a create without `userId` is the caller's own
 * project (the token says who), so the field is optional there.
 */
function userIdFromToken(document: OpenAPIObject): void {
  const schema = document.components?.schemas?.CreateProjectDto;
  if (!schema || '$ref' in schema) return;
  schema.required = schema.required?.filter((field) => field !== 'userId');
  const userId = schema.properties?.userId;
  if (userId && !('$ref' in userId)) {
    delete userId.example;
    userId.description =
      "Optional with a bearer token: left out, the project is the caller's own; given, it must be the caller's user id (otherwise 403)";
  }
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
