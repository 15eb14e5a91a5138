import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAPIResponseValidator from 'openapi-response-validator';
import type { OpenAPIV3 } from 'openapi-types';
import { REPO_ROOT } from './server-process';

/**
 * Checks a response against the OpenAPI document: the schema its operation
 * documents for that status. The document is the committed
 * client/openapi.json, which test/contract/sqlite/docs/api-docs.e2e-spec.ts keeps equal to the
 * one the server builds.
 */

export type OpenApiDocument = OpenAPIV3.Document;

export const loadOpenApiDocument = (): OpenApiDocument =>
  JSON.parse(
    readFileSync(join(REPO_ROOT, 'client', 'openapi.json'), 'utf8'),
  ) as OpenApiDocument;

interface Route {
  pattern: RegExp;
  template: string;
  item: OpenAPIV3.PathItemObject;
}

/** `/api/projects/{id}` → a pattern matching one path segment for `{id}`. */
function routesOf(document: OpenApiDocument): Route[] {
  return Object.entries(document.paths).map(([template, item]) => ({
    template,
    item: item ?? {},
    pattern: new RegExp(
      `^${template.replace(/\{[^}]+\}/g, '[^/]+').replace(/\//g, '\\/')}$`,
    ),
  }));
}

/**
 * Response headers a client acts on: each must be documented for the
 * status that carries it (a generated client exposes only those).
 */
const WATCHED_HEADERS = [
  'x-request-id',
  'location',
  'etag',
  'retry-after',
  'www-authenticate',
  'idempotent-replayed',
];

/**
 * An /api path no operation of the document has (a trailing slash, say)
 * must be an unknown route: a generated client cannot call it, so any
 * other answer is one the document hides.
 */
function unknownApiPathProblem(
  method: string,
  path: string,
  status: number,
): string | undefined {
  if (!path.startsWith('/api/') || status === 404) return undefined;
  return `${method.toUpperCase()} ${path} answered ${status}, but the OpenAPI document has no such path (an unknown route answers 404)`;
}

export class ResponseContract {
  private readonly routes: Route[];
  private readonly validators = new Map<string, OpenAPIResponseValidator>();

  constructor(private readonly document: OpenApiDocument) {
    this.routes = routesOf(document);
  }

  /**
   * What is wrong with a response, or undefined. Paths the document does
   * not describe (/docs, /health, /metrics, unknown routes) are not its
   * business, nor are methods it does not list for a path.
   */
  problem(
    method: string,
    path: string,
    status: number,
    body: unknown,
    headers: Record<string, unknown> = {},
  ): string | undefined {
    const route = this.routes.find((r) => r.pattern.test(path));
    const verb = method.toLowerCase() as OpenAPIV3.HttpMethods;
    const operation = route?.item[verb];
    if (!route) return unknownApiPathProblem(method, path, status);
    if (!operation) return undefined;
    const name = `${method.toUpperCase()} ${route.template}`;
    if (!(String(status) in operation.responses)) {
      return `${name} answered ${status}, a status the OpenAPI document does not list`;
    }
    const documented = Object.keys(
      (operation.responses[String(status)] as OpenAPIV3.ResponseObject)
        .headers ?? {},
    ).map((header) => header.toLowerCase());
    const undocumented = WATCHED_HEADERS.filter(
      (header) => header in headers && !documented.includes(header),
    );
    if (undocumented.length > 0) {
      return `${name} answered ${status} with the header(s) ${undocumented.join(', ')}, which the OpenAPI document does not list for it`;
    }
    // A documented non-JSON body (an image) has no schema to check here.
    const content = (
      operation.responses[String(status)] as OpenAPIV3.ResponseObject
    ).content;
    if (content && !('application/json' in content)) return undefined;
    const failure = this.validatorFor(name, operation).validateResponse(
      status,
      body,
    );
    return failure
      ? `${name} answered ${status} with a body the OpenAPI document does not allow: ${JSON.stringify(failure.errors)}`
      : undefined;
  }

  private validatorFor(
    name: string,
    operation: OpenAPIV3.OperationObject,
  ): OpenAPIResponseValidator {
    let validator = this.validators.get(name);
    if (!validator) {
      const responses = Object.fromEntries(
        Object.entries(operation.responses).map(([status, response]) => [
          status,
          {
            schema: (response as OpenAPIV3.ResponseObject).content?.[
              'application/json'
            ]?.schema as OpenAPIV3.SchemaObject,
          },
        ]),
      );
      validator = new OpenAPIResponseValidator({
        responses,
        components: this.document.components,
      });
      this.validators.set(name, validator);
    }
    return validator;
  }
}
