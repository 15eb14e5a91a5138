import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAPIResponseValidator from 'openapi-response-validator';
import type { OpenAPIV3 } from 'openapi-types';
import {
  loadOpenApiDocument,
  type OpenApiDocument,
} from '../../../support/openapi-responses';
import { REPO_ROOT } from '../../../support/server-process';

/**
 * The JSON examples of docs/api.md against the OpenAPI document (the
 * committed client/openapi.json, built from the DTOs). Under a heading
 * that names a route (`METHOD /path`), each ```json block is that route's
 * answer (its first 2xx status with a JSON body) and each curl `-d '…'`
 * body is its request. A heading that names a shape (`### The task`)
 * stands for the route that answers it. Objects are checked closed: a field the DTOs do not
 * have fails as surely as a required one left out. Formats are not
 * checked, so `"…"` stands for a value the example leaves out.
 */

interface Example {
  route: string;
  kind: 'request' | 'response';
  line: number;
  json: string;
}

const ROUTE_HEADING = /^#{2,4} `(GET|POST|PATCH|PUT|DELETE) (\/[^`?[\s]*)/;

/** Headings of a shape, and the route whose answer is that shape alone. */
const SHAPE_HEADINGS: Readonly<Record<string, string>> = {
  '### The task': 'GET /api/projects/{id}/tasks/{taskId}',
};

/** The examples of a Markdown text, each under the route heading above it. */
function examplesOf(markdown: string): Example[] {
  const examples: Example[] = [];
  const lines = markdown.split('\n');
  let route: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (/^#{1,4} /.test(line)) {
      const match = ROUTE_HEADING.exec(line);
      route = match ? `${match[1]} ${match[2]}` : SHAPE_HEADINGS[line];
      continue;
    }
    if (!route || !/^```(json|bash)\s*$/.test(line)) continue;
    const start = index + 1;
    const block: string[] = [];
    for (index++; index < lines.length && lines[index] !== '```'; index++) {
      block.push(lines[index]);
    }
    if (line === '```json') {
      examples.push({
        route,
        kind: 'response',
        line: start,
        json: block.join('\n'),
      });
      continue;
    }
    const sent = /-d '([^']*)'/s.exec(block.join('\n'));
    if (sent) {
      examples.push({ route, kind: 'request', line: start, json: sent[1] });
    }
  }
  return examples;
}

/** A copy of the schemas with every object closed (no unknown members). */
function closed<T>(value: T): T {
  if (Array.isArray(value)) return value.map(closed) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copy = Object.fromEntries(
    Object.entries(value).map(([key, member]) => [key, closed(member)]),
  ) as Record<string, unknown>;
  if ('properties' in copy && !('additionalProperties' in copy)) {
    copy.additionalProperties = false;
  }
  return copy as T;
}

/** The JSON body of the operation's first 2xx answer that has one. */
function successSchemaOf(operation: OpenAPIV3.OperationObject) {
  for (const [status, response] of Object.entries(operation.responses)) {
    const content = (response as OpenAPIV3.ResponseObject).content;
    if (status.startsWith('2') && content?.['application/json']) {
      return content['application/json'].schema;
    }
  }
  return undefined;
}

/** What is wrong with one example, or undefined. */
function problemOf(document: OpenApiDocument, example: Example) {
  const [method, path] = example.route.split(' ');
  const operation =
    document.paths[path]?.[method.toLowerCase() as OpenAPIV3.HttpMethods];
  if (!operation) return 'the OpenAPI document has no such operation';
  const schema =
    example.kind === 'request'
      ? (operation.requestBody as OpenAPIV3.RequestBodyObject | undefined)
          ?.content['application/json']?.schema
      : successSchemaOf(operation);
  if (!schema) return `the operation documents no JSON ${example.kind} body`;
  let body: unknown;
  try {
    body = JSON.parse(example.json);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  const failure = new OpenAPIResponseValidator({
    responses: { 200: { schema: closed(schema) } },
    components: closed(document.components),
  }).validateResponse(200, body);
  return failure ? JSON.stringify(failure.errors) : undefined;
}

describe('docs/api.md examples', () => {
  const document = loadOpenApiDocument();
  const examples = examplesOf(
    readFileSync(join(REPO_ROOT, 'docs', 'api.md'), 'utf8'),
  );

  it('finds the request and answer examples of the routes', () => {
    const kinds = new Set(examples.map((e) => `${e.kind} ${e.route}`));
    for (const expected of [
      'request POST /api/projects',
      'response POST /api/projects',
      'request PATCH /api/projects/{id}',
      'request POST /api/ai/generate-logo',
      'response GET /api/ai/generate-logo',
      'request POST /api/projects/{id}/logos',
      'response POST /api/projects/{id}/logos',
      'response GET /api/projects/{id}/tasks/{taskId}',
    ]) {
      expect(kinds).toContain(expected);
    }
  });

  it('match the OpenAPI schemas of their routes, with no unknown field', () => {
    const problems = examples.flatMap((example) => {
      const problem = problemOf(document, example);
      return problem
        ? [
            `docs/api.md:${example.line} (${example.kind} of ${example.route}): ${problem}`,
          ]
        : [];
    });
    expect(problems).toEqual([]);
  });

  it('fails an example with a field the DTO lacks, or without a required one', () => {
    const request = (json: string): Example => ({
      route: 'POST /api/projects',
      kind: 'request',
      line: 0,
      json,
    });
    expect(
      problemOf(
        document,
        request('{"name":"a","userId":"u","x_unknown_field":"red"}'),
      ),
    ).toMatch(/additional/);
    expect(problemOf(document, request('{"name":"a"}'))).toMatch(/userId/);
  });
});
